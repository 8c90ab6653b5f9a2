import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { allocateId } from '#store/ids.ts';
import { keys } from '#store/keys.ts';
import { queryAll } from '#store/query.ts';
import { ApiKeyNotFound } from './errors.ts';
import { putForOrganization } from './organizations.ts';

/**
 * Organization API keys, `<ORG_ID>.<SECRET>`. The secret is 256 random bits in
 * base64url; only its SHA-256 is stored. A fast hash is the right tool here: the
 * secret is random and long, so there is nothing for a slow KDF to protect, and
 * the authorizer stays one GetItem.
 */

const SECRET_BYTES = 32;
/** base64url of 32 bytes, no padding. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const API_KEY_PATTERN = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/;
/** How often the last-used time may be written per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** A key as listed to operators: never the secret. */
export interface ApiKeySummary {
  keyId: number;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The identity a valid key resolves to. */
export interface ApiKeyIdentity {
  orgId: number;
  keyId: number;
}

const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Splits a presented key into organization id and secret; null when it has the wrong shape. */
export function parseApiKey(raw: string | undefined): { orgId: number; secret: string } | null {
  if (raw === undefined || raw.length > 64) return null;
  const match = API_KEY_PATTERN.exec(raw);
  if (!match) return null;
  const orgId = Number(match[1]);
  if (!Number.isSafeInteger(orgId) || !SECRET_PATTERN.test(match[2]!)) return null;
  return { orgId, secret: match[2]! };
}

/** Creates a key for an existing organization and returns it in full (the only time it is shown). */
export async function createApiKey(orgId: number): Promise<{ keyId: number; apiKey: string }> {
  const keyId = await allocateId('apiKey');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  await putForOrganization(orgId, {
    ...keys.apiKey(hashSecret(secret), orgId, keyId),
    type: 'apiKey',
    orgId,
    keyId,
    createdAt: new Date().toISOString(),
  });
  return { keyId, apiKey: `${orgId}.${secret}` };
}

/**
 * Resolves a presented key to its organization, or null when the key is
 * malformed, unknown, revoked or names another organization than its own.
 */
export async function verifyApiKey(raw: string | undefined): Promise<ApiKeyIdentity | null> {
  const parsed = parseApiKey(raw);
  if (!parsed) return null;
  const secretHash = hashSecret(parsed.secret);
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.apiKeyLookup(secretHash) }),
  );
  if (!Item || Item.orgId !== parsed.orgId || Item.revokedAt) return null;
  const identity = { orgId: Item.orgId as number, keyId: Item.keyId as number };
  const lastUsedAt = typeof Item.lastUsedAt === 'string' ? Date.parse(Item.lastUsedAt) : 0;
  if (Date.now() - lastUsedAt >= LAST_USED_RESOLUTION_MS) await touchLastUsed(secretHash);
  return identity;
}

/** Records the last-used time, at most once per resolution window across all instances. */
async function touchLastUsed(secretHash: string): Promise<void> {
  const now = Date.now();
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKeyLookup(secretHash),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :cutoff)',
        ExpressionAttributeValues: {
          ':now': new Date(now).toISOString(),
          ':cutoff': new Date(now - LAST_USED_RESOLUTION_MS).toISOString(),
        },
      }),
    );
  } catch (error) {
    // Another instance wrote it within the window: nothing to do.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** Lists an organization's keys, oldest first, without secrets. */
export async function listApiKeys(orgId: number): Promise<ApiKeySummary[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.apiKeysOfOrganization(orgId).gsi1pk },
  });
  return items.map((item) => ({
    keyId: item.keyId as number,
    createdAt: item.createdAt as string,
    lastUsedAt: (item.lastUsedAt as string | undefined) ?? null,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
  }));
}

/** Revokes one of an organization's keys; revoking twice keeps the first revocation time. */
export async function revokeApiKey(orgId: number, keyId: number): Promise<ApiKeySummary> {
  const { Items } = await dynamo.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: {
        ':pk': keys.apiKeyInOrganization(orgId, keyId).gsi1pk,
        ':sk': keys.apiKeyInOrganization(orgId, keyId).gsi1sk,
      },
    }),
  );
  const item = Items?.[0];
  if (!item) throw new ApiKeyNotFound(orgId, keyId);
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return {
    keyId,
    createdAt: Attributes?.createdAt,
    lastUsedAt: Attributes?.lastUsedAt ?? null,
    revokedAt: Attributes?.revokedAt ?? null,
  };
}
