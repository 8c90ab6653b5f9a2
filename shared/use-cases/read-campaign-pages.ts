import type { Provider } from '#definitions/providers.ts';
import { type CampaignRecord, getCampaign, listCampaigns, toCampaignDetail } from '#domain/campaigns.ts';
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
 * A campaign as the dashboard shows it: its detail as the API answers it, and
 * the figures the API's shapes do not carry (kept apart, so that nothing
 * serializing the detail ever carries them).
 */
export interface DashboardCampaign {
  campaign: CampaignDetail;
  /** Its contacts with a reply classified positive, once at least (docs/decisions.md, Positive replies). */
  positiveReplied: number;
}

const dashboardCampaign = (record: CampaignRecord): DashboardCampaign => ({
  campaign: toCampaignDetail(record),
  positiveReplied: record.statPositiveReplied,
});

/**
 * 1. Read the organization's campaigns (one Query).
 * 2. Return each as the campaign detail (stats and contacts by status) with its positive replies, by id.
 *
 * The dashboard's campaign list (GET /public/v1/campaigns is the same read without the contact counts).
 */
export async function listCampaignDetails({ orgId }: ForOrganization): Promise<DashboardCampaign[]> {
  return (await listCampaigns(orgId)).map(dashboardCampaign);
}

/**
 * 1. Read the campaign (one GetItem of its item and shards: CampaignNotFound when it is not the
 *    organization's).
 * 2. Return its detail, as GET /public/v1/campaigns/{id} does, with its positive replies, its sequences
 *    and their links.
 *
 * The dashboard's campaign page.
 */
export async function readCampaignWithSequences(
  input: ForOrganization & { campaignId: number },
): Promise<DashboardCampaign & { sequences: CampaignSequence[] }> {
  const record = await getCampaign(input.orgId, input.campaignId);
  return {
    ...dashboardCampaign(record),
    sequences: record.sequences.map((sequence) => ({
      id: sequence.id,
      provider: sequence.provider,
      providerCampaignId: sequence.external_id,
      connectionId: sequence.connection_id,
    })),
  };
}
