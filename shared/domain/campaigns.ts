import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { CampaignInput, SequenceInput } from '#schemas/import.ts';
import type { CampaignDetail, CampaignSummary } from '#schemas/resources.ts';
import { keys } from '#store/keys.ts';
import { queryAll } from '#store/query.ts';
import { addCounters, TransactionConflictError, transact } from '#store/transactions.ts';
import { CAMPAIGN_COUNTERS, type CampaignCounts } from './aggregates.ts';
import { CampaignNotFound } from './errors.ts';

/**
 * Campaigns (ICPs) with their provider sequences, and the aggregates kept on
 * the campaign item itself so the list, the detail and the contact/message
 * totals are one read.
 */

/** A campaign as stored. Counters default to 0 when absent. */
export interface CampaignRecord extends CampaignCounts {
  orgId: number;
  campaignId: number;
  name: string;
  signals: string[];
  createdAt: string | null;
  sequences: SequenceInput[];
  accountsCount: number;
  messagesCount: number;
}

/** A stored campaign item as a record. */
export function toCampaignRecord(item: Record<string, unknown>): CampaignRecord {
  const counters = Object.fromEntries(
    CAMPAIGN_COUNTERS.map((name) => [name, Number(item[name] ?? 0)]),
  ) as CampaignCounts;
  return {
    ...counters,
    orgId: item.orgId as number,
    campaignId: item.campaignId as number,
    name: item.name as string,
    signals: (item.signals as string[]) ?? [],
    createdAt: (item.createdAt as string | null) ?? null,
    sequences: (item.sequences as SequenceInput[]) ?? [],
    accountsCount: Number(item.accountsCount ?? 0),
    messagesCount: Number(item.messagesCount ?? 0),
  };
}

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
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.campaign(orgId, input.id),
            type: 'campaign',
            orgId,
            campaignId: input.id,
            createdAt: input.created_at ?? new Date().toISOString(),
            ...fields,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      addCounters(keys.analytics(orgId), { totalCampaigns: 1 })!,
    ]);
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionConflictError && error.failedConditions.includes(0))) throw error;
  }
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.campaign(orgId, input.id),
      UpdateExpression: 'SET #name = :name, signals = :signals, sequences = :sequences',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: {
        ':name': fields.name,
        ':signals': fields.signals,
        ':sequences': fields.sequences,
      },
    }),
  );
  return 'updated';
}

/** Reads one of the organization's campaigns; another organization's is not found. */
export async function getCampaign(orgId: number, campaignId: number): Promise<CampaignRecord> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.campaign(orgId, campaignId) }),
  );
  if (!Item) throw new CampaignNotFound(campaignId);
  return toCampaignRecord(Item);
}

/** Every campaign of the organization, by id. */
export async function listCampaigns(orgId: number): Promise<CampaignRecord[]> {
  const { pk, skPrefix } = keys.campaignsOfOrganization(orgId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
  });
  return items.map(toCampaignRecord);
}

/** The sequence of a campaign with the given id, if it belongs to the campaign. */
export function findSequence(campaign: CampaignRecord, sequenceId: number): SequenceInput | undefined {
  return campaign.sequences.find((sequence) => sequence.id === sequenceId);
}

/** CampaignSummary: aggregation over the campaign's provider sequences (ARCHITECTURE §4). */
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
