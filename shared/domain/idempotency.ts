import { createHash, randomUUID } from 'node:crypto';
import { type IdempotencyRecord, idempotencyRecords } from '#store/idempotency.ts';
import { IdempotencyKeyInUse, IdempotencyKeyReused } from './errors.ts';

/**
 * `Idempotency-Key` for writes: the first request with a key claims it and
 * stores its response; the same key with the same request within 24 hours
 * replays that response without writing again; the same key with another
 * request is 422. A request still running under the key is 409. A request
 * that fails releases the key, so the client can retry.
 */

/** How long a key and its response are kept. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * A JSON rendering with sorted keys, so the same request always hashes the
 * same. Iterative, with its own stack of work, so no nesting of the value can
 * exhaust the call stack (a too-deep body is refused before this, but this
 * must hold whatever it is given).
 */
function canonical(value: unknown): string {
  const parts: string[] = [];
  // Popped last first: literal text, or a value still to render (an array element renders
  // `undefined` as nothing, an object member as `undefined`, as the recursive form did).
  const work: ({ text: string } | { value: unknown; inArray: boolean })[] = [{ value, inArray: false }];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if ('text' in next) {
      parts.push(next.text);
      continue;
    }
    const current = next.value;
    if (Array.isArray(current)) {
      work.push({ text: ']' });
      for (let index = current.length - 1; index >= 0; index--) {
        work.push({ value: current[index], inArray: true });
        if (index > 0) work.push({ text: ',' });
      }
      work.push({ text: '[' });
    } else if (current !== null && typeof current === 'object') {
      const members = current as Record<string, unknown>;
      const names = Object.keys(members).sort();
      work.push({ text: '}' });
      for (let index = names.length - 1; index >= 0; index--) {
        const name = names[index]!;
        work.push({ value: members[name], inArray: false });
        work.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(name)}:` });
      }
      work.push({ text: '{' });
    } else {
      parts.push(JSON.stringify(current) ?? (next.inArray ? '' : 'undefined'));
    }
  }
  return parts.join('');
}

/** The fingerprint of a request: what it targets and its body. */
export const requestFingerprint = (target: string, body: unknown): string =>
  createHash('sha256')
    .update(`${target}\n${canonical(body)}`)
    .digest('hex');

/** Runs `operation` at most once per (organization, key, fingerprint) within the TTL. */
export async function withIdempotency<T>(
  orgId: number,
  idempotencyKey: string | undefined,
  fingerprint: string,
  operation: () => Promise<T>,
): Promise<T> {
  if (idempotencyKey === undefined) return operation();
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
    if (record?.claim !== claim) return replayOrRefuse(record, fingerprint);
  }
  let result: T;
  try {
    result = await operation();
  } catch (error) {
    await idempotencyRecords.release(orgId, idempotencyKey);
    throw error;
  }
  await idempotencyRecords.complete(orgId, idempotencyKey, result);
  return result;
}

/** Another request holds the key: its response when it is done with the same request, else 422 or 409. */
function replayOrRefuse<T>(item: IdempotencyRecord | null, fingerprint: string): T {
  if (item?.fingerprint !== fingerprint) {
    throw new IdempotencyKeyReused();
  }
  if (item.state !== 'done') throw new IdempotencyKeyInUse();
  return item.response as T;
}
