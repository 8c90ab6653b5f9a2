import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * Ids in each provider's own format, so a client (and the service's webhook
 * mappers) meet the same shapes as against the real API: Smartlead and
 * HeyReach number their objects, Instantly uses UUIDs, lemlist prefixes a
 * 17-character base62 id with the object's kind (`cam_`, `lea_`, `act_`,
 * `eml_`, `hoo_`).
 */

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const uuid = (): string => randomUUID();

/** A lemlist id: `<prefix>_` and 17 base62 characters (`cam_aa7uvyxECcni5KXBM`). */
export function lemlistId(prefix: string): string {
  const bytes = randomBytes(17);
  let id = '';
  for (const byte of bytes) id += BASE62[byte % BASE62.length];
  return `${prefix}_${id}`;
}

/** Increasing numeric ids from a random start, as strings (the control API answers ids as strings). */
export function numericIds(): () => string {
  let next = 100_000 + randomBytes(2).readUInt16BE(0);
  return () => String(next++);
}

/** A random API key for a workspace created without one. */
export const randomApiKey = (): string => randomBytes(24).toString('base64url');

/**
 * A number in [0, 1) that depends only on `key` and `salt`: which leads reply,
 * and how, is chosen from the lead itself, so a run is reproducible.
 */
export function shareOf(key: string, salt: string): number {
  const digest = createHash('sha256').update(`${salt}:${key}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** An RFC 5322 Message-ID for an emulated email. */
export const messageIdHeader = (host: string): string => `<${randomUUID()}@${host}>`;
