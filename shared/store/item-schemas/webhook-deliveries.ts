import * as z from 'zod/mini';
import { DELIVERY_STATUSES } from '#schemas/webhooks.ts';

// The item schemas of webhook-deliveries.ts: what its store reads (and checks) items with.

const optionalText = z._default(z.nullable(z.string()), null);

const optionalNumber = z._default(z.nullable(z.number()), null);

export const deliveryItem = z.object({
  orgId: z.number(),
  webhookId: z.number(),
  deliveryId: z.number(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z._default(z.number(), 0),
  /** Raised by each redelivery: a queue message of an older generation is stale. */
  generation: z._default(z.number(), 0),
  responseCode: optionalNumber,
  latencyMs: optionalNumber,
  error: optionalText,
  createdAt: z.string(),
  lastAttemptAt: optionalText,
  nextAttemptAt: optionalText,
  deliveredAt: optionalText,
});

export type DeliveryRecord = z.infer<typeof deliveryItem>;

/** An event as fanned out: its payload and the deliveries made of it. */
export const eventRecordItem = z.object({
  payload: z.string(),
  deliveries: z._default(z.array(z.object({ webhookId: z.number(), deliveryId: z.number() })), []),
});

export type EventRecord = z.infer<typeof eventRecordItem>;
