import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import {
  type CodeItem,
  codeItem,
  type DynamicClientItem,
  type OAuthClientItem,
  oauthClientItem,
  type RefreshTokenItem,
  refreshTokenItem,
  type TokenFamilyItem,
  type TokenItem,
} from './item-schemas/oauth.ts';
import {
  countInWindow,
  isConditionFailure,
  type StoredClientItem,
  storedClientOf,
  type TokenStanding,
} from './oauth-token-checks.ts';
import { type TableSource, tableContext } from './table-context.ts';
import { type TransactItem, transact } from './transactions.ts';

export type {
  CodeItem,
  DynamicClientItem,
  OAuthClientItem,
  RefreshTokenItem,
  StoredClientItem,
  TokenFamilyItem,
  TokenItem,
  TokenStanding,
};

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * The MCP connector's OAuth items: clients (addressed by client id; an
 * operator's are listed per organization on gsi1, registered ones belong to
 * no organization), access and refresh tokens and authorization codes
 * (addressed by the hash of their value, expiring by TTL), the token families
 * that tie a code's tokens together, and the request windows of the rate
 * limits (per client and second on /mcp, per address and hour of
 * registrations).
 */

/** A token to write: what it grants and stands on, and when it expires. */
export interface TokenRecord {
  orgId: number;
  clientId: string;
  resource: string;
  scope: string;
  approvalId: string;
  expiresAt: number;
}

/** The tokens a code or a refresh token is exchanged for, all of one family. */
export interface IssuedPair {
  familyId: string;
  accessTokenHash: string;
  access: TokenRecord;
  /** Absent when the client may not hold refresh tokens. */
  refresh?: { hash: string; expiresAt: number };
}

export function oauthStore(table: TableSource = tableContext) {
  const tokenAttributes = (
    kind: 'token' | 'refresh',
    tokenHash: string,
    token: TokenRecord,
    familyId: string | null,
  ) => ({
    ...keys.oauthGrant(kind, tokenHash),
    type: kind === 'token' ? 'oauthToken' : 'oauthRefreshToken',
    ...token,
    ...(familyId !== null && { familyId }),
    createdAt: new Date().toISOString(),
  });
  const tokenPut = (...args: Parameters<typeof tokenAttributes>): TransactItem => ({
    Put: { TableName: table().name, Item: tokenAttributes(...args) },
  });

  /** The puts of a pair's tokens. */
  const pairPuts = (pair: IssuedPair): TransactItem[] => [
    tokenPut('token', pair.accessTokenHash, pair.access, pair.familyId),
    ...(pair.refresh
      ? [
          tokenPut(
            'refresh',
            pair.refresh.hash,
            { ...pair.access, expiresAt: pair.refresh.expiresAt },
            pair.familyId,
          ),
        ]
      : []),
  ];

  /** How long a family must live: as long as the longest-lived token of the pair. */
  const familyLifetime = (pair: IssuedPair) => pair.refresh?.expiresAt ?? pair.access.expiresAt;

  return {
    /** The put of a new operator client (its id must be new). */
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
        condition: 'client-id-taken',
      };
    },

    /** Writes a registered client (its id must be new); it is listed under no organization. */
    async putDynamicClient(client: Omit<DynamicClientItem, 'revokedAt'>): Promise<void> {
      const { name, client: dynamo } = table();
      await dynamo.send(
        new PutCommand({
          TableName: name,
          Item: { ...keys.oauthClient(client.clientId), type: 'oauthClient', ...client },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async getClient(clientId: string): Promise<StoredClientItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.oauthClient(clientId) }),
      );
      return Item ? storedClientOf(Item) : null;
    },

    /**
     * Keeps a registered client for good (an organization approved it): removes
     * its expiry. False when it is no registered client, is revoked or expired.
     */
    async keepDynamicClient(clientId: string, nowSeconds: number): Promise<boolean> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.oauthClient(clientId),
            UpdateExpression: 'REMOVE expiresAt',
            ConditionExpression:
              '#kind = :dynamic AND attribute_not_exists(revokedAt) AND (attribute_not_exists(expiresAt) OR expiresAt > :now)',
            ExpressionAttributeNames: { '#kind': 'kind' },
            ExpressionAttributeValues: { ':dynamic': 'dynamic', ':now': nowSeconds },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    /** The organization's operator clients (one Query of gsi1). */
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

    /** Sets the operator client's revocation time unless it has one; null when it is not the organization's. */
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
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    /** Writes a client-credentials access token (no family). */
    async putToken(tokenHash: string, token: TokenRecord): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({ TableName: name, Item: tokenAttributes('token', tokenHash, token, null) }),
      );
    },

    async getRefreshToken(tokenHash: string): Promise<RefreshTokenItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.oauthGrant('refresh', tokenHash), ConsistentRead: true }),
      );
      return Item ? refreshTokenItem.parse(Item) : null;
    },

    async putCode(codeHash: string, grant: Omit<CodeItem, 'familyId'>): Promise<void> {
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
     * Redeems a code: records the family of its tokens on it (kept as long as
     * the family may live, so a replay can revoke it), and writes the family and
     * its first pair, in one transaction that fails (TransactionConflictError,
     * the code's condition first) when the code is gone or was redeemed before.
     */
    async redeemCode(codeHash: string, pair: IssuedPair): Promise<void> {
      const { name } = table();
      await transact(
        [
          {
            Update: {
              TableName: name,
              Key: keys.oauthGrant('code', codeHash),
              UpdateExpression: 'SET familyId = :family, expiresAt = :until',
              // A code redeemed before families existed holds its token's hash instead.
              ConditionExpression:
                'attribute_exists(pk) AND attribute_not_exists(familyId) AND attribute_not_exists(tokenHash)',
              ExpressionAttributeValues: { ':family': pair.familyId, ':until': familyLifetime(pair) },
            },
            condition: 'code-redeemed',
          },
          {
            Put: {
              TableName: name,
              Item: {
                ...keys.oauthTokenFamily(pair.familyId),
                type: 'oauthTokenFamily',
                orgId: pair.access.orgId,
                clientId: pair.access.clientId,
                createdAt: new Date().toISOString(),
                expiresAt: familyLifetime(pair),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
            condition: 'token-family-exists',
          },
          ...pairPuts(pair),
        ],
        table(),
      );
    },

    /**
     * Rotates a refresh token: marks it consumed, moves its family's expiry on
     * to the new refresh token's, and writes the new pair, in one transaction
     * that fails (TransactionConflictError) when the token was consumed
     * meanwhile (condition 0) or the family is revoked or gone (condition 1).
     */
    async rotateRefreshToken(refreshHash: string, now: string, pair: IssuedPair): Promise<void> {
      const { name } = table();
      await transact(
        [
          {
            Update: {
              TableName: name,
              Key: keys.oauthGrant('refresh', refreshHash),
              UpdateExpression: 'SET consumedAt = :now',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(consumedAt)',
              ExpressionAttributeValues: { ':now': now },
            },
            condition: 'refresh-token-consumed',
          },
          {
            Update: {
              TableName: name,
              Key: keys.oauthTokenFamily(pair.familyId),
              UpdateExpression: 'SET expiresAt = :until',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
              ExpressionAttributeValues: { ':until': familyLifetime(pair) },
            },
            condition: 'token-family-revoked',
          },
          ...pairPuts(pair),
        ],
        table(),
      );
    },

    /** Revokes every token of a family at once; nothing when the family is gone (its tokens expired). */
    async revokeFamily(familyId: string, now: string): Promise<void> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.oauthTokenFamily(familyId),
            UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':now': now },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    /**
     * Counts one registration in the source address's window of this hour,
     * unless it holds `limit` already (false then). The window expires at `expiresAt`.
     */
    admitRegistration: (sourceAddress: string, hour: number, limit: number, expiresAt: number) =>
      countInWindow(
        {
          key: keys.oauthRegistrationWindow(sourceAddress, hour),
          counter: 'registrations',
          limit,
          expiresAt,
        },
        table,
      ),
  };
}

/** The OAuth items of the configured table. */
export const oauth = /* @__PURE__ */ oauthStore();
