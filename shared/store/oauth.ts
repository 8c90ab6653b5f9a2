import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { keys } from './keys.ts';
import { type TableSource, tableContext } from './table-context.ts';
import { type TransactItem, transact } from './transactions.ts';

/**
 * The MCP connector's OAuth items: clients (addressed by client id, listed
 * per organization on gsi1), access tokens and authorization codes (addressed
 * by the hash of their value, expiring by TTL), and the per-second request
 * windows of the client rate limit.
 */

export const oauthClientItem = z.object({
  clientId: z.string(),
  orgId: z.number(),
  name: z.string(),
  redirectUris: z.array(z.string()).default([]),
  rateLimit: z.number().nullable().default(null),
  secretHash: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable().default(null),
});
export type OAuthClientItem = z.infer<typeof oauthClientItem>;

/** What a token grants; a code grants the same to its redeemer. */
const grantFields = {
  orgId: z.number(),
  clientId: z.string(),
  resource: z.string(),
  scope: z.string(),
  /** Epoch seconds; DynamoDB deletes expired items lazily, so readers check it. */
  expiresAt: z.number(),
};

export const tokenItem = z.object(grantFields);
export type TokenItem = z.infer<typeof tokenItem>;

export const codeItem = z.object({
  ...grantFields,
  redirectUri: z.string(),
  codeChallenge: z.string(),
  /** The hash of the token the code was redeemed for, once it was. */
  tokenHash: z.string().optional(),
});
export type CodeItem = z.infer<typeof codeItem>;

type Grant = Omit<TokenItem, 'expiresAt'>;

export function oauthStore(table: TableSource = tableContext) {
  const tokenPut = (tokenHash: string, grant: Grant, expiresAt: number) => ({
    TableName: table().name,
    Item: {
      ...keys.oauthGrant('token', tokenHash),
      type: 'oauthToken',
      orgId: grant.orgId,
      clientId: grant.clientId,
      resource: grant.resource,
      scope: grant.scope,
      createdAt: new Date().toISOString(),
      expiresAt,
    },
  });

  return {
    /** The put of a new client (its id must be new). */
    putNewClient(
      client: Omit<OAuthClientItem, 'rateLimit' | 'revokedAt'> & { rateLimit?: number },
    ): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.oauthClient(client.clientId),
            ...keys.oauthClientInOrganization(client.orgId, client.clientId),
            type: 'oauthClient',
            clientId: client.clientId,
            orgId: client.orgId,
            name: client.name,
            redirectUris: client.redirectUris,
            ...(client.rateLimit !== undefined && { rateLimit: client.rateLimit }),
            secretHash: client.secretHash,
            createdAt: client.createdAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      };
    },

    async getClient(clientId: string): Promise<OAuthClientItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.oauthClient(clientId) }),
      );
      return Item ? oauthClientItem.parse(Item) : null;
    },

    /** The organization's clients (one Query of gsi1). */
    async listClients(orgId: number): Promise<OAuthClientItem[]> {
      const { name, client } = table();
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: name,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.oauthClientsOfOrganization(orgId).gsi1pk },
        }),
      );
      return Items.map((item) => oauthClientItem.parse(item));
    },

    /** Sets the client's revocation time unless it has one; null when it is not the organization's. */
    async revokeClient(orgId: number, clientId: string, now: string): Promise<OAuthClientItem | null> {
      const { name, client } = table();
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.oauthClient(clientId),
            UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
            ConditionExpression: 'orgId = :org',
            ExpressionAttributeValues: { ':now': now, ':org': orgId },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return oauthClientItem.parse(Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },

    async putToken(tokenHash: string, grant: Grant, expiresAt: number): Promise<void> {
      await table().client.send(new PutCommand(tokenPut(tokenHash, grant, expiresAt)));
    },

    async getToken(tokenHash: string): Promise<TokenItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.oauthGrant('token', tokenHash) }),
      );
      return Item ? tokenItem.parse(Item) : null;
    },

    /** Deletes a token: it stops working at once. */
    async deleteToken(tokenHash: string): Promise<void> {
      const { name, client } = table();
      await client.send(new DeleteCommand({ TableName: name, Key: keys.oauthGrant('token', tokenHash) }));
    },

    async putCode(codeHash: string, grant: Omit<CodeItem, 'tokenHash'>): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: { ...keys.oauthGrant('code', codeHash), type: 'oauthCode', ...grant },
        }),
      );
    },

    async getCode(codeHash: string): Promise<CodeItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.oauthGrant('code', codeHash), ConsistentRead: true }),
      );
      return Item ? codeItem.parse(Item) : null;
    },

    /**
     * Redeems a code: records the token on it (kept until `until`, as long as
     * the token lives) and writes the token, in one transaction that fails
     * (TransactionConflictError) when the code is gone or was redeemed before.
     */
    async redeemCode(codeHash: string, token: { hash: string; grant: Grant; expiresAt: number }) {
      await transact(
        [
          {
            Update: {
              TableName: table().name,
              Key: keys.oauthGrant('code', codeHash),
              UpdateExpression: 'SET tokenHash = :token, expiresAt = :until',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(tokenHash)',
              ExpressionAttributeValues: { ':token': token.hash, ':until': token.expiresAt },
            },
          },
          { Put: tokenPut(token.hash, token.grant, token.expiresAt) },
        ],
        table(),
      );
    },

    /**
     * Counts one request in the client's window of this second, unless it
     * holds `limit` already (false then). The window expires at `expiresAt`.
     */
    async admitRequest(clientId: string, second: number, limit: number, expiresAt: number): Promise<boolean> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.mcpRequestWindow(clientId, second),
            UpdateExpression: 'ADD requests :one SET expiresAt = :expires',
            ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
            ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': expiresAt },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
  };
}

/** The OAuth items of the configured table. */
export const oauth = oauthStore();
