import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyScope } from '#definitions/routes.ts';
import * as keys from './item-keys.ts';
import {
  type ApiKeyIdentityItem,
  type ApiKeyItem,
  apiKeyIdentityItem,
  apiKeyItem,
  type ItemKey,
  itemKey,
} from './item-schemas/api-keys.ts';
import { queryAll } from './query.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { ApiKeyIdentityItem, ApiKeyItem };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * API keys, addressed by the hash of their secret (the authorizer's one
 * GetItem) and listed per organization on gsi1.
 */

export function apiKeyStore(table: TableSource = tableContext) {
  return {
    /** The put of a new key (its secret hash must be new); a key without a name or expiry stores neither. */
    putNew(key: {
      secretHash: string;
      orgId: number;
      keyId: number;
      scope: ApiKeyScope;
      name: string | null;
      createdAt: string;
      expiresAt: string | null;
    }): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.apiKey(key.secretHash, key.orgId, key.keyId),
            type: 'apiKey',
            orgId: key.orgId,
            keyId: key.keyId,
            scope: key.scope,
            createdAt: key.createdAt,
            ...(key.name !== null && { name: key.name }),
            ...(key.expiresAt !== null && { expiresAt: key.expiresAt }),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        condition: 'api-key-exists',
      };
    },

    async getBySecretHash(secretHash: string): Promise<ApiKeyIdentityItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.apiKeyLookup(secretHash) }),
      );
      return Item ? apiKeyIdentityItem.parse(Item) : null;
    },

    /** Sets the last-used time unless another writer set one after `cutoff`; false then. */
    async touchLastUsed(secretHash: string, now: string, cutoff: string): Promise<boolean> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.apiKeyLookup(secretHash),
            UpdateExpression: 'SET lastUsedAt = :now',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :cutoff)',
            ExpressionAttributeValues: { ':now': now, ':cutoff': cutoff },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    /** The organization's keys, in key id order. */
    async listOfOrganization(orgId: number): Promise<ApiKeyItem[]> {
      const items = await queryAll(
        {
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.apiKeysOfOrganization(orgId).gsi1pk },
        },
        table(),
      );
      return items.map((item) => apiKeyItem.parse(item));
    },

    /** The item key of one of the organization's keys (one Query of gsi1); null when it has none with the id. */
    async findInOrganization(orgId: number, keyId: number): Promise<ItemKey | null> {
      const { name, client } = table();
      const { gsi1pk, gsi1sk } = keys.apiKeyInOrganization(orgId, keyId);
      const { Items } = await client.send(
        new QueryCommand({
          TableName: name,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
          ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
        }),
      );
      const item = Items?.[0];
      return item ? itemKey.parse(item) : null;
    },

    /** Sets the key's revocation time unless it has one; returns the key as it now is. */
    async revoke(key: ItemKey, now: string): Promise<ApiKeyItem> {
      const { name, client } = table();
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: name,
          Key: { pk: key.pk, sk: key.sk },
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
          ExpressionAttributeValues: { ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return apiKeyItem.parse(Attributes);
    },
  };
}

/** The API keys of the configured table. */
export const apiKeys = /* @__PURE__ */ apiKeyStore();
