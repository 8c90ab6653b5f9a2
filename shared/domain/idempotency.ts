import { createHash, randomUUID } from 'node:crypto';
import { IDEMPOTENCY_TTL_SECONDS } from '#definitions/idempotency.ts';
import { canonicalJson } from '#platform/canonical-json.ts';
import { type IdempotencyRecord, idempotencyRecords } from '#store/idempotency.ts';
import { IdempotencyKeyInUse, IdempotencyKeyReused } from './errors.ts';

/**
 * `Idempotency-Key` for writes: the first request with a key claims it and
 * stores its response; the same key with the same request within 24 hours
 * replays that response without writing again; the same key with another
 * request is 422. A request still running under the key is 409. A request
 * that fails releases the key, so the client can retry.
 */

/** The fingerprint of a request: what it targets and its body (keys sorted, so their order does not count). */
export const requestFingerprint = (target: string, body: unknown): string =>
  createHash('sha256')
    .update(`${target}\n${canonicalJson(body)}`)
    .digest('hex');

/**
 * The fingerprint of an API request (the endpoint wrapper's): its method, the route it matched and
 * its validated path, query and body, so that member order, whitespace and ignored fields do not
 * make another request of the same one.
 */
export const endpointFingerprint = (
  method: string,
  route: string,
  parts: { path?: unknown; query?: unknown; body?: unknown },
): string =>
  requestFingerprint(`${method} ${route}`, {
    path: parts.path ?? null,
    query: parts.query ?? null,
    body: parts.body ?? null,
  });

/** What a request under a key answered, and whether that is an earlier request's answer, replayed. */
export interface Outcome<T> {
  value: T;
  replayed: boolean;
}

/**
 * Runs `operation` at most once per (organization, key) within the TTL: the
 * first request claims the key and stores what it returns; the same request
 * again gets that, replayed. A request that throws releases the key (any
 * error: a refusal changed nothing, and a fault may be retried).
 */
export async function withIdempotency<T>(
  orgId: number,
  idempotencyKey: string,
  fingerprint: string,
  operation: () => Promise<T>,
): Promise<Outcome<T>> {
  const now = Math.floor(Date.now() / 1000);
  // Marks this request's claim: when the SDK resends a claim whose answer was lost, the claim it then
  // finds is its own, not another request's in progress.
  const claim = randomUUID();
  const claimed = await idempotencyRecords.claim(orgId, idempotencyKey, {
    fingerprint,
    claim,
    now,
    expiresAt: now + IDEMPOTENCY_TTL_SECONDS,
  });
  if (!claimed) {
    const record = await idempotencyRecords.get(orgId, idempotencyKey);
    if (record?.claim !== claim) return { value: replayOrRefuse<T>(record, fingerprint), replayed: true };
  }
  let value: T;
  try {
    value = await operation();
  } catch (error) {
    await idempotencyRecords.release(orgId, idempotencyKey);
    throw error;
  }
  await idempotencyRecords.complete(orgId, idempotencyKey, value);
  return { value, replayed: false };
}

/** Another request holds the key: its response when it is done with the same request, else 422 or 409. */
function replayOrRefuse<T>(item: IdempotencyRecord | null, fingerprint: string): T {
  if (item?.fingerprint !== fingerprint) {
    throw new IdempotencyKeyReused();
  }
  if (item.state !== 'done') throw new IdempotencyKeyInUse();
  return item.response as T;
}
