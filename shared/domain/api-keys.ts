import { randomBytes } from 'node:crypto';
import { hashSecret } from '#platform/secret-hash.ts';
import { type ApiKeyItem, apiKeys } from '#store/api-keys.ts';
import { allocateId } from '#store/ids.ts';
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
  await putForOrganization(
    orgId,
    apiKeys.putNew({ secretHash: hashSecret(secret), orgId, keyId, createdAt: new Date().toISOString() }),
  );
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
  const item = await apiKeys.getBySecretHash(secretHash);
  if (!item || item.orgId !== parsed.orgId || item.revokedAt) return null;
  const identity = { orgId: item.orgId, keyId: item.keyId };
  const lastUsedAt = item.lastUsedAt !== null ? Date.parse(item.lastUsedAt) : 0;
  if (Date.now() - lastUsedAt >= LAST_USED_RESOLUTION_MS) await touchLastUsed(secretHash);
  return identity;
}

/** Records the last-used time, at most once per resolution window across all instances. */
async function touchLastUsed(secretHash: string): Promise<void> {
  const now = Date.now();
  // False when another instance wrote it within the window: nothing to do.
  await apiKeys.touchLastUsed(
    secretHash,
    new Date(now).toISOString(),
    new Date(now - LAST_USED_RESOLUTION_MS).toISOString(),
  );
}

const summaryOf = (item: ApiKeyItem): ApiKeySummary => ({
  keyId: item.keyId,
  createdAt: item.createdAt,
  lastUsedAt: item.lastUsedAt,
  revokedAt: item.revokedAt,
});

/** Lists an organization's keys, oldest first, without secrets. */
export async function listApiKeys(orgId: number): Promise<ApiKeySummary[]> {
  return (await apiKeys.listOfOrganization(orgId)).map(summaryOf);
}

/** Revokes one of an organization's keys; revoking twice keeps the first revocation time. */
export async function revokeApiKey(orgId: number, keyId: number): Promise<ApiKeySummary> {
  const item = await apiKeys.findInOrganization(orgId, keyId);
  if (!item) throw new ApiKeyNotFound(orgId, keyId);
  return summaryOf(await apiKeys.revoke(item, new Date().toISOString()));
}
