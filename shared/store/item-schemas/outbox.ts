import * as z from 'zod/mini';

// The item schemas of outbox.ts: what its store reads (and checks) items with.

/** An outbox item as the relay reads it from the table's stream. */
export const outboxItem = z.object({
  orgId: z.number(),
  outboxId: z.string(),
  queue: z.string(),
  /** The queue message's body (a webhook event's payload). */
  body: z.string(),
  createdAt: z.string(),
  /** `webhookEvent` for a webhook event, which the relay fans out; absent for a plain queue message. */
  kind: z.optional(z.string()),
  eventType: z.optional(z.string()),
});

export type OutboxItem = z.infer<typeof outboxItem>;
