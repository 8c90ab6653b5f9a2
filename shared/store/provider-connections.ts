import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import {
  connectionCountItem,
  type ProviderConnectionRecord,
  providerConnectionItem,
} from './item-schemas/provider-connections.ts';
import { queryAll } from './query.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { ProviderConnectionRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Provider connections: an organization's account at a provider (its API key,
 * sealed) and the URL the provider posts its webhooks to. The URL's token is
 * not stored: it is a tag of the connection and its `urlGeneration`, which a
 * rotation moves on. The events that matched nothing are
 * unmatched-provider-events.ts, the provider's message ids provider-messages.ts.
 */

/**
 * Reads a connection consistently; null when the organization has none with
 * the id. A function of its own (the store's `get` is it): the enrollment
 * consumer needs only this read, and a store object is kept whole wherever it
 * is used (docs/architecture.md, Bundles).
 */
export async function getProviderConnection(
  orgId: number,
  connectionId: number,
  table: TableContext = tableContext(),
): Promise<ProviderConnectionRecord | null> {
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.name,
      Key: keys.providerConnection(orgId, connectionId),
      ConsistentRead: true,
    }),
  );
  return Item ? providerConnectionItem.parse(Item) : null;
}

export function providerConnectionStore(table: TableSource = tableContext) {
  return {
    get: (orgId: number, connectionId: number): Promise<ProviderConnectionRecord | null> =>
      getProviderConnection(orgId, connectionId, table()),

    /** Every connection of the organization, by id (one Query of its partition). */
    async list(orgId: number): Promise<ProviderConnectionRecord[]> {
      const { pk, skPrefix } = keys.providerConnectionsOf(orgId);
      const items = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ConsistentRead: true,
        },
        table(),
      );
      return items.map((item) => providerConnectionItem.parse(item));
    },

    putNew(record: ProviderConnectionRecord): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.providerConnection(record.orgId, record.connectionId),
            type: 'providerConnection',
            ...record,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        condition: 'connection-id-taken',
      };
    },

    /** Counts one more connection; fails when the organization has `max` already. */
    countOneMore(orgId: number, max: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.providerConnectionCount(orgId),
          UpdateExpression: 'ADD connections :one',
          ConditionExpression: 'attribute_not_exists(connections) OR connections < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': max },
        },
        condition: 'connection-limit',
      };
    },

    countOneLess(orgId: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.providerConnectionCount(orgId),
          UpdateExpression: 'ADD connections :minusOne',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      };
    },

    /** The delete of a connection; it fails when there is none. */
    deleteExisting(orgId: number, connectionId: number): TransactItem {
      return {
        Delete: {
          TableName: table().name,
          Key: keys.providerConnection(orgId, connectionId),
          ConditionExpression: 'attribute_exists(pk)',
        },
        condition: 'connection-not-found',
      };
    },

    /**
     * Puts a new sealed API key (its hint and workspace with it) on the connection; null when there is none.
     * The URL generation is kept: the webhook URL pasted into the provider goes on working. The key was
     * just verified at the provider, at `verifiedAt`: the connection is `ok` from then.
     */
    async replaceApiKey(
      orgId: number,
      connectionId: number,
      key: Pick<ProviderConnectionRecord, 'apiKey' | 'apiKeyHint' | 'workspaceId'>,
      verifiedAt: string,
    ): Promise<ProviderConnectionRecord | null> {
      const { name, client } = table();
      const workspace =
        key.workspaceId === undefined ? ' REMOVE workspaceId' : ', workspaceId = :workspaceId';
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.providerConnection(orgId, connectionId),
            UpdateExpression: `SET apiKey = :apiKey, apiKeyHint = :apiKeyHint, #status = :ok, lastSuccessAt = :at, healthWrittenAt = :at${workspace}`,
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':apiKey': key.apiKey,
              ':apiKeyHint': key.apiKeyHint,
              ':ok': 'ok',
              ':at': verifiedAt,
              ...(key.workspaceId === undefined ? {} : { ':workspaceId': key.workspaceId }),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return providerConnectionItem.parse(Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },

    /** Moves the connection's URL generation on (the old URL stops working); null when there is none. */
    async nextUrlGeneration(orgId: number, connectionId: number): Promise<ProviderConnectionRecord | null> {
      const { name, client } = table();
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.providerConnection(orgId, connectionId),
            UpdateExpression: 'ADD urlGeneration :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return providerConnectionItem.parse(Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },

    /** How many connections the organization has. */
    async count(orgId: number): Promise<number> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.providerConnectionCount(orgId), ConsistentRead: true }),
      );
      return connectionCountItem.parse(Item ?? {}).connections;
    },
  };
}

export const providerConnections = /* @__PURE__ */ providerConnectionStore();
