import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { API_KEY_SCOPES, type ApiKeyScope } from '#definitions/routes.ts';
import { hashSecret } from '#platform/secret-hash.ts';
import { type ApiKeyIdentityItem, type ApiKeyItem, apiKeys } from '#store/api-keys.ts';
import { allocateId } from '#store/ids.ts';
import { ApiKeyNotFound, ApiKeyOptionInvalid } from './errors.ts';
import { putForOrganization } from './organizations.ts';

/**
 * Organization API keys, `<ORG_ID>.<SECRET>`. The secret is 256 random bits in
 * base64url; only its SHA-256 is stored. A fast hash is the right tool here: the
 * secret is random and long, so there is nothing for a slow KDF to protect, and
 * the authorizer stays one GetItem.
 *
 * A key's scope (`read` or `read-write`, API_KEY_SCOPES), name and expiry are
 * set when it is created and never change: a key of another scope is a new
 * key. An expired key is refused exactly like a revoked one.
 */

const SECRET_BYTES = 32;
/** base64url of 32 bytes, no padding. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const API_KEY_PATTERN = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/;
/** How often the last-used time may be written per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** The longest name a key may have, in characters. */
export const MAX_API_KEY_NAME = 100;
/** The furthest a new key's expiry may be, in days (ten years). */
export const MAX_API_KEY_EXPIRY_DAYS = 3650;
const DAY_MS = 86_400_000;

/**
 * Letters, marks, digits, punctuation, symbols and spaces: no control or
 * format characters and no line or paragraph separators, so a name prints as
 * written on one line (tab-separated lists and logs included).
 */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]*$/u;
const EXPIRY_DAYS_RANGE = `must be a whole number from 1 to ${MAX_API_KEY_EXPIRY_DAYS}`;

/**
 * What a new key is created with: its scope (default `read-write`), an
 * optional name (trimmed) and an optional lifetime in whole days. The operator
 * CLI and the dashboard validate their input with it before creating a key;
 * `createApiKey` holds every caller to it.
 */
export const newApiKeyOptions = z.object({
  scope: z._default(z.enum(API_KEY_SCOPES, 'must be read or read-write'), 'read-write'),
  name: z.optional(
    z.string().check(
      z.trim(),
      z.refine(
        (name) => PRINTABLE.test(name),
        'must be printable: no tabs, line breaks or control characters',
      ),
      z.refine(
        (name) => [...name].length >= 1 && [...name].length <= MAX_API_KEY_NAME,
        `must be 1-${MAX_API_KEY_NAME} characters`,
      ),
    ),
  ),
  expiresInDays: z.optional(
    z
      .number(EXPIRY_DAYS_RANGE)
      .check(
        z.int(EXPIRY_DAYS_RANGE),
        z.gte(1, EXPIRY_DAYS_RANGE),
        z.lte(MAX_API_KEY_EXPIRY_DAYS, EXPIRY_DAYS_RANGE),
      ),
  ),
});
export type NewApiKeyOptions = z.input<typeof newApiKeyOptions>;

/** A key as listed to operators: never the secret. */
export interface ApiKeySummary {
  keyId: number;
  scope: ApiKeyScope;
  name: string | null;
  createdAt: string;
  /** null: the key never expires. */
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A new key: in full, the only time it is shown, with what it was created with. */
export interface CreatedApiKey {
  keyId: number;
  apiKey: string;
  scope: ApiKeyScope;
  name: string | null;
  createdAt: string;
  expiresAt: string | null;
}

/** The identity a valid key resolves to, with what it may call. */
export interface ApiKeyIdentity {
  orgId: number;
  keyId: number;
  scope: ApiKeyScope;
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

/**
 * Creates a key for an existing organization and returns it in full (the only
 * time it is shown). Without options it is a `read-write` key with no name
 * that never expires; options outside `newApiKeyOptions` are ApiKeyOptionInvalid.
 */
export async function createApiKey(orgId: number, options: NewApiKeyOptions = {}): Promise<CreatedApiKey> {
  const parsed = newApiKeyOptions.safeParse(options);
  if (!parsed.success) {
    const { message, path } = parsed.error.issues[0]!;
    const field = path[0];
    throw new ApiKeyOptionInvalid(
      message,
      field === undefined ? undefined : { in: 'body', name: String(field) },
    );
  }
  const { scope, name = null, expiresInDays } = parsed.data;
  const keyId = await allocateId('apiKey');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const expiresAt = expiresInDays === undefined ? null : new Date(now + expiresInDays * DAY_MS).toISOString();
  await putForOrganization(
    orgId,
    apiKeys.putNew({ secretHash: hashSecret(secret), orgId, keyId, scope, name, createdAt, expiresAt }),
  );
  return { keyId, apiKey: `${orgId}.${secret}`, scope, name, createdAt, expiresAt };
}

/** Whether the key's expiry has passed at `now`; an expiry that is no time counts as passed. */
export const isExpired = (key: Pick<ApiKeyIdentityItem, 'expiresAt'>, now = Date.now()): boolean =>
  key.expiresAt !== null && !(Date.parse(key.expiresAt) > now);

/**
 * Resolves a presented key to its organization and scope, or null when the key
 * is malformed, unknown, revoked, expired or names another organization than
 * its own.
 */
export async function verifyApiKey(raw: string | undefined): Promise<ApiKeyIdentity | null> {
  const parsed = parseApiKey(raw);
  if (!parsed) return null;
  const secretHash = hashSecret(parsed.secret);
  const item = await apiKeys.getBySecretHash(secretHash);
  if (!item || item.orgId !== parsed.orgId || item.revokedAt || isExpired(item)) return null;
  const identity = { orgId: item.orgId, keyId: item.keyId, scope: item.scope };
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
  scope: item.scope,
  name: item.name,
  createdAt: item.createdAt,
  expiresAt: item.expiresAt,
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
