import type { Provider } from '#definitions/providers.ts';
import { getCampaign, listCampaigns, toCampaignDetail } from '#domain/campaigns.ts';
import type { CampaignDetail } from '#schemas/resources.ts';
import type { ForOrganization } from './operation.ts';

/** A sequence of a campaign, with the provider campaign it is linked to. */
export interface CampaignSequence {
  id: number;
  provider: Provider;
  /** The provider campaign it is linked to, and on which connection; null when it is not linked. */
  providerCampaignId: string | null;
  connectionId: number | null;
}

/**
 * 1. Read the organization's campaigns (one Query).
 * 2. Return each as the campaign detail (stats and contacts by status), by id.
 *
 * The dashboard's campaign list (GET /public/v1/campaigns is the same read without the contact counts).
 */
export async function listCampaignDetails({ orgId }: ForOrganization): Promise<CampaignDetail[]> {
  return (await listCampaigns(orgId)).map(toCampaignDetail);
}

/**
 * 1. Read the campaign (one GetItem of its item and shards: CampaignNotFound when it is not the
 *    organization's).
 * 2. Return its detail, as GET /public/v1/campaigns/{id} does, with its sequences and their links.
 *
 * The dashboard's campaign page.
 */
export async function readCampaignWithSequences(
  input: ForOrganization & { campaignId: number },
): Promise<{ campaign: CampaignDetail; sequences: CampaignSequence[] }> {
  const record = await getCampaign(input.orgId, input.campaignId);
  return {
    campaign: toCampaignDetail(record),
    sequences: record.sequences.map((sequence) => ({
      id: sequence.id,
      provider: sequence.provider,
      providerCampaignId: sequence.external_id,
      connectionId: sequence.connection_id,
    })),
  };
}
