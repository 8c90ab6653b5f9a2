import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import {
  failureStreakItem,
  subscriptionCountItem,
  type WebhookRecord,
  webhookItem,
} from './item-schemas/webhooks.ts';
import { queryAll } from './query.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { WebhookRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Webhook subscriptions: an organization's subscriptions share one partition
 * (so the relay's fan-out and the list read them with one Query), beside the
 * count of them that holds the limit.
 */

export function webhookStore(table: TableSource = tableContext) {
  return {
    /** Every subscription of the organization, by id (one consistent Query of its partition). */
    async list(orgId: number): Promise<WebhookRecord[]> {
      const { pk, skPrefix } = keys.webhooksOfOrganization(orgId);
      const items = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ConsistentRead: true,
        },
        table(),
      );
      return items.map((item) => webhookItem.parse(item));
    },

    /** One subscription, read consistently; null when the organization has none with the id. */
    async get(orgId: number, webhookId: number): Promise<WebhookRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.webhook(orgId, webhookId), ConsistentRead: true }),
      );
      return Item ? webhookItem.parse(Item) : null;
    },

    /** How many subscriptions the organization has (a consistent read of its count). */
    async count(orgId: number): Promise<number> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.webhookCount(orgId), ConsistentRead: true }),
      );
      return subscriptionCountItem.parse(Item ?? {}).subscriptions;
    },

    /** The put of a new subscription; null attributes are left out (the failure streak starts with if_not_exists). */
    putNew(record: WebhookRecord): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.webhook(record.orgId, record.webhookId),
            type: 'webhook',
            ...Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        condition: 'webhook-id-taken',
      };
    },

    /** The update that counts one more subscription; it fails when the organization has `max` already. */
    countOneMore(orgId: number, max: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.webhookCount(orgId),
          UpdateExpression: 'ADD subscriptions :one',
          ConditionExpression: 'attribute_not_exists(subscriptions) OR subscriptions < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': max },
        },
        condition: 'webhook-limit',
      };
    },

    /** The update that counts one subscription less. */
    countOneLess(orgId: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.webhookCount(orgId),
          UpdateExpression: 'ADD subscriptions :minusOne',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      };
    },

    /** The delete of a subscription; it fails when there is none. */
    deleteExisting(orgId: number, webhookId: number): TransactItem {
      return {
        Delete: {
          TableName: table().name,
          Key: keys.webhook(orgId, webhookId),
          ConditionExpression: 'attribute_exists(pk)',
        },
        condition: 'webhook-not-found',
      };
    },

    /**
     * Sets and removes attributes of an existing subscription whose `expect`
     * attributes have the given values; returns it as it now is, or null
     * (changing nothing) when it does not exist or `expect` does not hold.
     */
    async update(
      orgId: number,
      webhookId: number,
      change: { set: Record<string, unknown>; remove: string[]; expect: Record<string, unknown> },
    ): Promise<WebhookRecord | null> {
      const { name, client } = table();
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const sets = Object.entries(change.set).map(([attribute, value], index) => {
        names[`#s${index}`] = attribute;
        values[`:s${index}`] = value;
        return `#s${index} = :s${index}`;
      });
      const removes = change.remove.map((attribute, index) => {
        names[`#r${index}`] = attribute;
        return `#r${index}`;
      });
      const conditions = ['attribute_exists(pk)'];
      Object.entries(change.expect).forEach(([attribute, value], index) => {
        names[`#e${index}`] = attribute;
        values[`:e${index}`] = value;
        conditions.push(`#e${index} = :e${index}`);
      });
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.webhook(orgId, webhookId),
            UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return webhookItem.parse(Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },

    /** Disables an enabled subscription, saying why; false when it is disabled or gone already. */
    async disable(orgId: number, webhookId: number, reason: string, now: string): Promise<boolean> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.webhook(orgId, webhookId),
            UpdateExpression: 'SET #enabled = :false, disabledReason = :reason, updatedAt = :now',
            ConditionExpression: '#enabled = :true',
            ExpressionAttributeNames: { '#enabled': 'enabled' },
            ExpressionAttributeValues: { ':false': false, ':true': true, ':reason': reason, ':now': now },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    /**
     * Starts the failure streak of an enabled subscription unless it is
     * failing already; returns when the streak began, or null when the
     * subscription is gone or disabled.
     */
    async recordFailure(orgId: number, webhookId: number, now: string): Promise<string | null> {
      const { name, client } = table();
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.webhook(orgId, webhookId),
            UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :now)',
            ConditionExpression: 'attribute_exists(pk) AND #enabled = :true',
            ExpressionAttributeNames: { '#enabled': 'enabled' },
            ExpressionAttributeValues: { ':now': now, ':true': true },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return failureStreakItem.parse(Attributes).failingSince;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },

    /** Ends the subscription's failure streak, if it has one. */
    async clearFailure(orgId: number, webhookId: number): Promise<void> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.webhook(orgId, webhookId),
            UpdateExpression: 'REMOVE failingSince',
            ConditionExpression: 'attribute_exists(failingSince)',
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
  };
}

/** The webhook subscriptions of the configured table. */
export const webhooks = /* @__PURE__ */ webhookStore();
