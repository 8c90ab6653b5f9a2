import { createHash } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch.ts';
import type { CampaignRecord } from './campaigns.ts';
import * as keys from './item-keys.ts';
import { campaignItem } from './item-schemas/campaigns.ts';
import { cooldownSetting, shardItem } from './item-schemas/exclusions.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * The organization's exclusion list: each excluded email or domain has its
 * own item (with what the caller said about it) and is also a member of one
 * of a fixed number of shard sets, so a check reads every exclusion it needs
 * in a single BatchGetItem.
 */

export type ExclusionKind = 'email' | 'domain';

/** Shards per kind; each is a string set of at most 400 KB (≈ 20,000 domains). */
export const EXCLUSION_SHARDS = 16;

/** The shard a value's membership is kept in. */
export const shardOf = (value: string): number =>
  createHash('sha1').update(value).digest().readUInt16BE(0) % EXCLUSION_SHARDS;

/** The members of shard items, by kind. */
function membersOf(items: Record<string, unknown>[]): { emails: Set<string>; domains: Set<string> } {
  const members = { emails: new Set<string>(), domains: new Set<string>() };
  for (const item of items) {
    const shard = shardItem.parse(item);
    const target = shard.sk.startsWith('EMAIL#') ? members.emails : members.domains;
    for (const value of shard.values ?? []) target.add(value);
  }
  return members;
}

/** What a raw push reads before it judges anyone (one BatchGetItem). */
export interface PushSettings {
  campaign: CampaignRecord | null;
  /** The organization's cooldown window; null when it set none (or does not exist). */
  cooldownDays: number | null;
  /** The members of every domain shard and of the given emails' shards. */
  excluded: { emails: Set<string>; domains: Set<string> };
}

/** The shard keys that hold the given values' membership. */
function exclusionShardKeys(orgId: number, values: { emails: string[]; domains: string[] }) {
  const shards = new Map<string, { pk: string; sk: string }>();
  for (const [kind, list] of [
    ['email', values.emails],
    ['domain', values.domains],
  ] as const) {
    for (const value of list) {
      const key = keys.exclusionShard(orgId, kind, shardOf(value));
      shards.set(`${key.pk}|${key.sk}`, key);
    }
  }
  return [...shards.values()];
}

export function exclusionStore(table: TableSource = tableContext) {
  return {
    /** Writes an exclusion's own item (replacing its details). */
    async put(
      orgId: number,
      entry: {
        kind: ExclusionKind;
        value: string;
        companyName?: string;
        companyLinkedinUrl?: string;
        updatedAt: string;
      },
    ): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: {
            ...keys.exclusion(orgId, entry.kind, entry.value),
            type: 'exclusion',
            orgId,
            kind: entry.kind,
            value: entry.value,
            companyName: entry.companyName,
            companyLinkedinUrl: entry.companyLinkedinUrl,
            updatedAt: entry.updatedAt,
          },
        }),
      );
    },

    /** Adds a value to its shard set. */
    async addToShard(orgId: number, kind: ExclusionKind, value: string): Promise<void> {
      const { name, client } = table();
      await client.send(
        new UpdateCommand({
          TableName: name,
          Key: keys.exclusionShard(orgId, kind, shardOf(value)),
          UpdateExpression: 'ADD #values :value',
          ExpressionAttributeNames: { '#values': 'values' },
          ExpressionAttributeValues: { ':value': new Set([value]) },
        }),
      );
    },

    /** The shard keys that hold the given values' membership. */
    shardKeys: exclusionShardKeys,

    /** Every member of the shards that hold the given values (one BatchGetItem, ≤ 32 shard items). */
    async shardMembers(
      orgId: number,
      values: { emails: string[]; domains: string[] },
    ): Promise<{ emails: Set<string>; domains: Set<string> }> {
      return membersOf(await batchGet(exclusionShardKeys(orgId, values), {}, table()));
    },
  };
}

/** The exclusion list of the configured table. */
export const exclusions = /* @__PURE__ */ exclusionStore();

/**
 * The campaign, the organization's cooldown setting and the exclusion shards a
 * push of `emails` (normalized) needs, in one BatchGetItem: every domain shard
 * (a contact's company domain is known only once its item is read) and the
 * emails' shards. A function of its own, not a method of `exclusions`: the
 * push and its eligibility check need only this read, and a store object is
 * kept whole wherever it is used (docs/architecture.md, Bundles).
 */
export async function readPushSettings(
  orgId: number,
  campaignId: number,
  emails: string[],
  table: TableContext = tableContext(),
): Promise<PushSettings> {
  const campaignKey = keys.campaign(orgId, campaignId);
  const organizationKey = keys.organization(orgId);
  const shardKeys = [
    ...Array.from({ length: EXCLUSION_SHARDS }, (_, shard) => keys.exclusionShard(orgId, 'domain', shard)),
    ...[...new Set(emails.map(shardOf))].map((shard) => keys.exclusionShard(orgId, 'email', shard)),
  ];
  const items = await batchGet([campaignKey, organizationKey, ...shardKeys], {}, table);
  const find = (key: { pk: string; sk: string }) =>
    items.find((item) => item.pk === key.pk && item.sk === key.sk);
  const campaign = find(campaignKey);
  const organization = find(organizationKey);
  const shardPartition = keys.exclusionShard(orgId, 'domain', 0).pk;
  return {
    campaign: campaign ? campaignItem.parse(campaign) : null,
    cooldownDays: organization ? cooldownSetting.parse(organization).cooldownDays : null,
    excluded: membersOf(items.filter((item) => item.pk === shardPartition)),
  };
}
