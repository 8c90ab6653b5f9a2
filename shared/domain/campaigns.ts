import type { CampaignInput } from '#schemas/import.ts';
import type { CampaignDetail, CampaignSummary } from '#schemas/resources.ts';
import { type CampaignRecord, campaigns, type StoredSequence } from '#store/campaigns.ts';
import { organizations } from '#store/organizations.ts';
import { TransactionConflictError, transact } from '#store/transactions.ts';
import { CampaignNotFound } from './errors.ts';

/**
 * Campaigns (ICPs) with their provider sequences, and the aggregates kept on
 * the campaign item itself so the list, the detail and the contact/message
 * totals are one read.
 */

/** A campaign as stored (shared/store/campaigns.ts); counters default to 0 when absent. */
export type { CampaignRecord };

/**
 * Creates the campaign, or updates its name, signals and sequences if it
 * exists (counters untouched). A new campaign counts in the organization's
 * total_campaigns in the same transaction.
 */
export async function upsertCampaign(orgId: number, input: CampaignInput): Promise<'created' | 'updated'> {
  const fields = {
    name: input.name,
    signals: input.signals,
    sequences: input.sequences,
  };
  try {
    await transact([
      campaigns.putNew(orgId, input.id, {
        ...fields,
        createdAt: input.created_at ?? new Date().toISOString(),
      }),
      organizations.analyticsCounters(orgId, { totalCampaigns: 1 })!,
    ]);
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionConflictError && error.failedConditions.includes(0))) throw error;
  }
  await campaigns.updateDefinition(orgId, input.id, fields);
  return 'updated';
}

/** Reads one of the organization's campaigns; another organization's is not found. */
export async function getCampaign(orgId: number, campaignId: number): Promise<CampaignRecord> {
  const campaign = await campaigns.get(orgId, campaignId);
  if (!campaign) throw new CampaignNotFound(campaignId);
  return campaign;
}

/** Every campaign of the organization, by id. */
export async function listCampaigns(orgId: number): Promise<CampaignRecord[]> {
  return campaigns.list(orgId);
}

/** The sequence of a campaign with the given id, if it belongs to the campaign. */
export function findSequence(campaign: CampaignRecord, sequenceId: number): StoredSequence | undefined {
  return campaign.sequences.find((sequence) => sequence.id === sequenceId);
}

/** CampaignSummary: aggregation over the campaign's provider sequences (docs/decisions.md, Campaign reads). */
export function toCampaignSummary(campaign: CampaignRecord): CampaignSummary {
  const providers = [...new Set(campaign.sequences.map((sequence) => sequence.provider))].sort();
  return {
    id: campaign.campaignId,
    provider: providers.length === 1 ? providers[0]! : null,
    providers,
    sequence_ids: campaign.sequences.map((sequence) => sequence.id).sort((a, b) => a - b),
    icp_id: campaign.campaignId,
    icp_name: campaign.name,
    created_at: campaign.createdAt,
    steps_count: campaign.sequences.reduce((total, sequence) => total + sequence.steps.length, 0),
    stats: {
      sent: campaign.statSent,
      opened: campaign.statOpened,
      clicked: campaign.statClicked,
      bounced: campaign.statBounced,
      unsubscribed: campaign.statUnsubscribed,
      blocked: campaign.statBlocked,
    },
  };
}

/** CampaignDetail: the summary plus current status counts. */
export function toCampaignDetail(campaign: CampaignRecord): CampaignDetail {
  return {
    ...toCampaignSummary(campaign),
    contacts: {
      pending_approval: campaign.statusPendingApproval,
      scheduled: campaign.statusScheduled,
      in_progress: campaign.statusInProgress,
      completed: campaign.statusCompleted,
      replied: campaign.statusReplied,
    },
  };
}
