import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CAMPAIGN_SHARDS, counterShard } from './counter-shards.ts';
import * as keys from './item-keys.ts';
import {
  type CampaignRecord,
  campaignItem,
  campaignShardItem,
  type StoredSequence,
} from './item-schemas/campaigns.ts';
import { queryAll } from './query.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import { addCounters, type TransactItem } from './transactions.ts';

export {
  CAMPAIGN_COUNTERS,
  type CampaignCounter,
  SHARDED_COUNTERS,
  type ShardedCampaignCounter,
} from '#definitions/item-fields.ts';

import {
  type CampaignCounter,
  SHARDED_COUNTERS,
  type ShardedCampaignCounter,
} from '#definitions/item-fields.ts';

export type { CampaignRecord, StoredSequence };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Campaigns (ICPs): one item per campaign in the organization's partition,
 * with its provider sequences and the aggregates kept on it at write time.
 */

export type CampaignCounts = Record<CampaignCounter, number>;

/** What an assignment or a check needs of its sequence. */
export type SequenceRef = Pick<StoredSequence, 'id' | 'provider' | 'channel'>;

/**
 * The campaigns of a Query's items, each with its shards' counters added:
 * a shard sorts right after its campaign, so it follows it in the items.
 */
function withShards(items: Record<string, unknown>[]): CampaignRecord[] {
  const records: CampaignRecord[] = [];
  let current: CampaignRecord | null = null;
  for (const item of items) {
    if (!keys.isCampaignShard(item as { sk: string })) {
      current = campaignItem.parse(item);
      records.push(current);
      continue;
    }
    // A shard without its campaign before it (never written so) counts for nothing anyone reads.
    if (!current || !String(item.sk).startsWith(keys.campaign(current.orgId, current.campaignId).sk))
      continue;
    const shard = campaignShardItem.parse(item);
    for (const name of SHARDED_COUNTERS) current[name] += shard[name];
  }
  return records;
}

/** What a campaign's definition holds (the import's input, without the counters). */
export interface CampaignDefinition {
  name: string;
  signals: string[];
  sequences: unknown[];
}

/** A sequence's new provider link, at its position in the campaign's list of sequences. */
export interface SequenceLinkChange {
  index: number;
  sequenceId: number;
  externalId: string | null;
  connectionId: number | null;
}

/**
 * The update adding an assignment's `deltas` to a shard of the campaign (the
 * writer slot's, else the one its id picks: counter-shards.ts): what every
 * event's write sends, so no single item takes all of a campaign's events.
 * Null when nothing changes. A function of its own: the writes that move
 * counters need nothing else of the store.
 */
export function campaignShardCounters(
  orgId: number,
  campaignId: number,
  assignmentId: number,
  deltas: Partial<Record<ShardedCampaignCounter, number>>,
  writerSlot: number | null = null,
  table: TableContext = tableContext(),
): TransactItem | null {
  const shard = counterShard(assignmentId, CAMPAIGN_SHARDS, writerSlot);
  return addCounters(keys.campaignShard(orgId, campaignId, shard), deltas, {}, table);
}

export function campaignStore(table: TableSource = tableContext) {
  const definitionUpdate = (orgId: number, campaignId: number, definition: CampaignDefinition) => ({
    TableName: table().name,
    Key: keys.campaign(orgId, campaignId),
    UpdateExpression: 'SET #name = :name, signals = :signals, sequences = :sequences',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#name': 'name' },
    ExpressionAttributeValues: {
      ':name': definition.name,
      ':signals': definition.signals,
      ':sequences': definition.sequences,
    },
  });
  return {
    /** The put of a new campaign (its id must be new in the organization). */
    putNew(
      orgId: number,
      campaignId: number,
      definition: CampaignDefinition & { createdAt: string },
    ): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.campaign(orgId, campaignId),
            type: 'campaign',
            orgId,
            campaignId,
            createdAt: definition.createdAt,
            name: definition.name,
            signals: definition.signals,
            sequences: definition.sequences,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        condition: 'campaign-id-taken',
      };
    },

    /** Replaces an existing campaign's name, signals and sequences (its counters untouched). */
    async updateDefinition(orgId: number, campaignId: number, definition: CampaignDefinition): Promise<void> {
      const { client } = table();
      await client.send(new UpdateCommand(definitionUpdate(orgId, campaignId, definition)));
    },

    /** The same replacement as an item of a transaction (with the writes that go with it). */
    definitionUpdate(orgId: number, campaignId: number, definition: CampaignDefinition): TransactItem {
      return { Update: definitionUpdate(orgId, campaignId, definition), condition: 'campaign-not-found' };
    },

    /**
     * The update that sets sequences' provider campaign ids and connections,
     * each addressed by its position in the campaign's list; it fails when a
     * position no longer holds the sequence read there (a concurrent import
     * replaced the list), so the caller reads again.
     */
    linkSequences(orgId: number, campaignId: number, links: SequenceLinkChange[]): TransactItem {
      const sets: string[] = [];
      const conditions: string[] = [];
      const values: Record<string, unknown> = {};
      links.forEach((link, index) => {
        const path = `sequences[${link.index}]`;
        sets.push(`${path}.external_id = :e${index}`, `${path}.connection_id = :c${index}`);
        conditions.push(`${path}.id = :s${index}`);
        values[`:e${index}`] = link.externalId;
        values[`:c${index}`] = link.connectionId;
        values[`:s${index}`] = link.sequenceId;
      });
      return {
        Update: {
          TableName: table().name,
          Key: keys.campaign(orgId, campaignId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeValues: values,
        },
        condition: 'campaign-sequences-replaced',
      };
    },

    /**
     * Reads a campaign with its counters: one Query of its item and its
     * shards, which sort after it; `consistent` for a read-modify-write.
     */
    async get(
      orgId: number,
      campaignId: number,
      options: { consistent?: boolean } = {},
    ): Promise<CampaignRecord | null> {
      const { pk, skPrefix } = keys.campaignWithShards(orgId, campaignId);
      const items = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ...(options.consistent && { ConsistentRead: true }),
        },
        table(),
      );
      return withShards(items)[0] ?? null;
    },

    /** Every campaign of the organization, by id (one Query of its partition); `consistent` for a read-modify-write. */
    async list(orgId: number, options: { consistent?: boolean } = {}): Promise<CampaignRecord[]> {
      const { pk, skPrefix } = keys.campaignsOfOrganization(orgId);
      const items = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ...(options.consistent && { ConsistentRead: true }),
        },
        table(),
      );
      return withShards(items);
    },

    /**
     * The update adding `deltas` to the campaign's counters; with `mustExist`
     * it fails when the campaign does not exist ('campaign-not-found', with the
     * campaign's id as subject). Null when nothing changes and nothing is checked.
     */
    counters(
      orgId: number,
      campaignId: number,
      deltas: Partial<Record<CampaignCounter | 'accountsCount' | 'messagesCount', number>>,
      options: { mustExist?: boolean } = {},
    ): TransactItem | null {
      const item = addCounters(
        keys.campaign(orgId, campaignId),
        deltas,
        { mustExist: options.mustExist ? 'campaign-not-found' : undefined },
        table(),
      );
      return item && { ...item, subject: campaignId };
    },
  };
}

/** The campaigns of the configured table. */
export const campaigns = /* @__PURE__ */ campaignStore();
