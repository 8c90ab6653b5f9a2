import { listCampaigns } from '#domain/campaigns.ts';
import type { Provider } from '#schemas/import.ts';
import type { ForOrganization } from './operation.ts';

/** A campaign as the approvals page offers it: its name, and its sequences' provider and channel. */
export interface ApprovalCampaign {
  id: number;
  name: string;
  sequences: { id: number; provider: Provider; channel: string }[];
}

/**
 * 1. Read the organization's campaigns (one Query).
 * 2. Return each with its sequences' provider and channel, by which the
 *    page names a pending contact's sequence (a sequence has no name).
 *
 * The dashboard's approvals page.
 */
export async function listApprovalCampaigns(input: ForOrganization): Promise<ApprovalCampaign[]> {
  const campaigns = await listCampaigns(input.orgId);
  return campaigns.map((campaign) => ({
    id: campaign.campaignId,
    name: campaign.name,
    sequences: campaign.sequences.map(({ id, provider, channel }) => ({ id, provider, channel })),
  }));
}
