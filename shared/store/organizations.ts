import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch.ts';
import { ANALYTICS_SHARDS, counterShard } from './counter-shards.ts';
import * as keys from './item-keys.ts';
import { type OrganizationItem, organizationItem } from './item-schemas/organization-item.ts';
import { type AnalyticsItem, analyticsItem, demoSeedItem } from './item-schemas/organizations.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import { addCounters, type TransactItem } from './transactions.ts';

export { ORGANIZATION_COUNTERS, type OrganizationCounter } from '#definitions/item-fields.ts';

import type { OrganizationCounter } from '#definitions/item-fields.ts';

export type { AnalyticsItem };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * The organization (tenant) item with its settings, the organization's
 * analytics counters, and the marker of the demo seed.
 */

export type { OrganizationItem };

export type OrganizationCounts = Record<OrganizationCounter, number>;

/**
 * The update adding an assignment's `deltas` to an analytics shard (the
 * writer slot's, else the one its id picks: counter-shards.ts), so no single
 * item takes all of an organization's events. Null when nothing changes. A
 * function of its own: the writes that move counters need nothing else of
 * the store.
 */
export function analyticsShardCounters(
  orgId: number,
  assignmentId: number,
  deltas: Partial<Record<OrganizationCounter, number>>,
  writerSlot: number | null = null,
  table: TableContext = tableContext(),
): TransactItem | null {
  const shard = counterShard(assignmentId, ANALYTICS_SHARDS, writerSlot);
  return addCounters(keys.analyticsShard(orgId, shard), deltas, {}, table);
}

export function organizationStore(table: TableSource = tableContext) {
  return {
    /** Writes a new organization (its id must be new). */
    async create(organization: OrganizationItem): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: { ...keys.organization(organization.orgId), type: 'organization', ...organization },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async get(orgId: number): Promise<OrganizationItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(new GetCommand({ TableName: name, Key: keys.organization(orgId) }));
      return Item ? organizationItem.parse(Item) : null;
    },

    /**
     * One conditional update of the organization item (`expression` may use
     * `:value`), so it never creates a stray item. Null when the organization
     * does not exist.
     */
    async update(orgId: number, expression: string, value?: unknown): Promise<OrganizationItem | null> {
      const { name, client } = table();
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.organization(orgId),
            UpdateExpression: expression,
            ConditionExpression: 'attribute_exists(pk)',
            ...(value !== undefined && { ExpressionAttributeValues: { ':value': value } }),
            ReturnValues: 'ALL_NEW',
          }),
        );
        return organizationItem.parse(Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },

    /** The transaction item that requires the organization to exist. */
    existsCheck(orgId: number): TransactItem {
      return {
        ConditionCheck: {
          TableName: table().name,
          Key: keys.organization(orgId),
          ConditionExpression: 'attribute_exists(pk)',
        },
        condition: 'organization-not-found',
      };
    },

    /**
     * The organization's analytics counters (all 0 before the first write):
     * its analytics item and every shard, added up, from one BatchGetItem.
     */
    async getAnalytics(orgId: number): Promise<AnalyticsItem> {
      const items = await batchGet(
        [
          keys.analytics(orgId),
          ...Array.from({ length: ANALYTICS_SHARDS }, (_, shard) => keys.analyticsShard(orgId, shard)),
        ],
        {},
        table(),
      );
      const total = analyticsItem.parse({});
      for (const item of items) {
        const counts = analyticsItem.parse(item);
        for (const name of Object.keys(total) as (keyof AnalyticsItem)[]) total[name] += counts[name];
      }
      return total;
    },

    /**
     * The update adding `deltas` to the analytics item itself: for what moves
     * rarely (a new campaign); an assignment's changes go to a shard.
     * Null when nothing changes.
     */
    analyticsCounters(
      orgId: number,
      deltas: Partial<Record<OrganizationCounter | 'totalCampaigns', number>>,
    ): TransactItem | null {
      return addCounters(keys.analytics(orgId), deltas, {}, table());
    },

    /** Records which organization the demo seed created. */
    async markDemoSeed(orgId: number): Promise<void> {
      const { name, client } = table();
      await client.send(new PutCommand({ TableName: name, Item: { ...keys.demoSeed(), orgId } }));
    },

    /** The organization the demo seed created, if the table was seeded. */
    async demoSeed(): Promise<number | null> {
      const { name, client } = table();
      const { Item } = await client.send(new GetCommand({ TableName: name, Key: keys.demoSeed() }));
      const parsed = demoSeedItem.safeParse(Item);
      return parsed.success ? parsed.data.orgId : null;
    },
  };
}

/** The organizations of the configured table. */
export const organizations = /* @__PURE__ */ organizationStore();
