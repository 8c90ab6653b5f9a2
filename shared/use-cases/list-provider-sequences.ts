import { listCampaigns } from '#domain/campaigns.ts';
import type { Provider } from '#schemas/import.ts';
import type { ForOrganization } from './operation.ts';

/** A sequence of one provider, with the campaign it is part of and its link. */
export interface ProviderSequence {
  campaignId: number;
  campaignName: string;
  sequenceId: number;
  /** The provider campaign it is linked to, and on which connection; null when it is not linked. */
  providerCampaignId: string | null;
  connectionId: number | null;
}

/**
 * 1. Read the organization's campaigns (one Query).
 * 2. Return the sequences of `provider`, by campaign and sequence, each with its link.
 *
 * The dashboard's connection page, which offers each of them a provider campaign.
 */
export async function listProviderSequences(
  input: ForOrganization & { readonly provider: Provider },
): Promise<ProviderSequence[]> {
  const campaigns = await listCampaigns(input.orgId);
  return campaigns.flatMap((campaign) =>
    campaign.sequences
      .filter((sequence) => sequence.provider === input.provider)
      .map((sequence) => ({
        campaignId: campaign.campaignId,
        campaignName: campaign.name,
        sequenceId: sequence.id,
        providerCampaignId: sequence.external_id,
        connectionId: sequence.connection_id,
      })),
  );
}
