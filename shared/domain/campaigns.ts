import type { CampaignInput } from '#schemas/import.ts';
import type { CampaignDetail, CampaignSummary } from '#schemas/resources.ts';
import { type CampaignRecord, campaigns, type StoredSequence } from '#store/campaigns.ts';
import { organizations } from '#store/organizations.ts';
import { sequenceHomes } from '#store/sequence-homes.ts';
import { sequenceLinks } from '#store/sequence-links.ts';
import { type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
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
 * total_campaigns in the same transaction. Each sequence with an
 * `external_id` gets its link (shared/store/sequence-links.ts) in the same
 * request; a sequence given without one keeps the link it has. Each
 * sequence's home names the campaign afterwards (one BatchWriteItem per 25).
 */
export async function upsertCampaign(orgId: number, input: CampaignInput): Promise<'created' | 'updated'> {
  const fields = {
    name: input.name,
    signals: input.signals,
    sequences: input.sequences,
  };
  const links = linkPuts(orgId, input);
  const homes = () => sequenceHomes.put(orgId, input.id, sequenceIdsOf(input));
  try {
    await transact(newCampaignWrites(orgId, input));
    await homes();
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionConflictError && error.failed.has('campaign-id-taken'))) throw error;
  }
  const definition = { ...fields, sequences: await withKeptLinks(orgId, input) };
  if (links.length === 0) await campaigns.updateDefinition(orgId, input.id, definition);
  else await transact([campaigns.definitionUpdate(orgId, input.id, definition), ...links]);
  await homes();
  return 'updated';
}

const sequenceIdsOf = (input: CampaignInput): number[] => input.sequences.map((sequence) => sequence.id);

/**
 * The puts of the campaign's sequence homes (shared/store/sequence-homes.ts), for a bulk import: written
 * beside the campaign, never in its transaction, which its sequences' links can fill.
 */
export function sequenceHomeWrites(orgId: number, input: CampaignInput): TransactItem[] {
  return sequenceIdsOf(input).map((sequenceId) => sequenceHomes.putOne(orgId, input.id, sequenceId));
}

/**
 * The writes that create a campaign (the put fails when its id exists): the
 * campaign, its count in the organization's total and its sequence links.
 */
export function newCampaignWrites(orgId: number, input: CampaignInput): TransactItem[] {
  return [
    campaigns.putNew(orgId, input.id, {
      name: input.name,
      signals: input.signals,
      sequences: input.sequences,
      createdAt: input.created_at ?? new Date().toISOString(),
    }),
    organizations.analyticsCounters(orgId, { totalCampaigns: 1 })!,
    ...linkPuts(orgId, input),
  ];
}

/** The link puts of the campaign's sequences that name their provider campaign. */
function linkPuts(orgId: number, input: CampaignInput): TransactItem[] {
  return input.sequences.flatMap((sequence) =>
    sequence.external_id
      ? [
          sequenceLinks.put(orgId, {
            provider: sequence.provider,
            externalId: sequence.external_id,
            campaignId: input.id,
            sequenceId: sequence.id,
            connectionId: sequence.connection_id ?? null,
          }),
        ]
      : [],
  );
}

/**
 * The sequences to store on a re-import: one given without `external_id`
 * keeps the link it has (made by an earlier import or `linkSequence`), so
 * re-importing an older file does not unlink it; `null` unlinks it. Reads
 * the campaign only when some sequence is given without one.
 */
async function withKeptLinks(orgId: number, input: CampaignInput): Promise<unknown[]> {
  if (input.sequences.every((sequence) => sequence.external_id !== undefined)) return input.sequences;
  const stored = await campaigns.get(orgId, input.id, { consistent: true });
  return input.sequences.map((sequence) => {
    const before = stored && findSequence(stored, sequence.id);
    if (sequence.external_id !== undefined || !before?.external_id || before.provider !== sequence.provider) {
      return sequence;
    }
    return { ...sequence, external_id: before.external_id, connection_id: before.connection_id };
  });
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
