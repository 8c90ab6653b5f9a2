import * as z from 'zod/mini';

// The item schemas of idempotency.ts: what its store reads (and checks) items with.

export const idempotencyItem = z.object({
  fingerprint: z.string(),
  /** The claim id of the request that holds the key (absent on records written without one). */
  claim: z.optional(z.string()),
  state: z.string(),
  /** The response of a request that is done (a JSON value). */
  response: z.optional(z.unknown()),
});

export type IdempotencyRecord = z.infer<typeof idempotencyItem>;
