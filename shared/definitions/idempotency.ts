/**
 * `Idempotency-Key` on the unsafe operations of `/public/v1` (docs/decisions.md,
 * Idempotency-Key): which requests take one, what a key may be, the headers,
 * and the table actions a function needs to keep the keys. Zod-free, so the
 * endpoint wrapper and the route manifest name them without bringing zod onto
 * a function's static path (docs/architecture.md, Bundles).
 */

/** The request header a client names its key in. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The response header of an answer replayed from an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** The methods whose requests take a key: every one that may change something (GET never does). */
export const IDEMPOTENT_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Longest key a request may name. */
export const MAX_IDEMPOTENCY_KEY = 255;

/** A key: 1 to 255 printable ASCII characters (space to `~`), so it reads the same in every client and log. */
export const isIdempotencyKey = (key: string): boolean =>
  key.length >= 1 && key.length <= MAX_IDEMPOTENCY_KEY && /^[\x20-\x7e]+$/.test(key);

/** What a request with a key that is not one is told (400). */
export const IDEMPOTENCY_KEY_MALFORMED = `${IDEMPOTENCY_KEY_HEADER} must be 1-${MAX_IDEMPOTENCY_KEY} printable ASCII characters`;

/** How long a key and its answer are kept. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * The table actions of keeping a key (shared/store/idempotency.ts): a claim (PutItem), the holder's
 * record read when the claim fails (GetItem), the answer (UpdateItem), a release (DeleteItem). Every
 * route whose method is in IDEMPOTENT_METHODS lists them in the manifest (test/unit/routes.test.ts).
 */
export const IDEMPOTENCY_TABLE_ACTIONS = ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] as const;
