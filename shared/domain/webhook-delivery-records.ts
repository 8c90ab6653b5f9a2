import type { WebhookDelivery } from '#schemas/webhooks.ts';
import type { DeliveryRecord } from '#store/webhook-deliveries.ts';

/**
 * Deliveries: one per (event, subscription). An event is kept as an event
 * record (the payload, kept for redelivery) beside its deliveries; each
 * delivery becomes one message on the webhooks queue. The items are the
 * store's (shared/store/webhook-deliveries.ts); this module holds the queue
 * message and the resource; the jobs on them are fan-out (webhook-fan-out.ts),
 * dispatch (webhook-dispatch.ts) and the deliveries log with redelivery and
 * test events (webhook-delivery-log.ts).
 */

/** A message on the webhooks queue. */
export interface DeliveryJob {
  orgId: number;
  webhookId: number;
  deliveryId: number;
  eventId: string;
  /** Raised by each redelivery: a message of an older generation is stale and dropped. */
  generation: number;
  /** Asked for explicitly (test event, redelivery): sent even while the subscription is disabled. */
  manual?: boolean;
}

/** A delivery as stored (shared/store/webhook-deliveries.ts). */
export type { DeliveryRecord };

/** The delivery resource of the deliveries log. */
export function toWebhookDelivery(record: DeliveryRecord): WebhookDelivery {
  return {
    id: record.deliveryId,
    webhook_id: record.webhookId,
    event_id: record.eventId,
    event_type: record.eventType,
    status: record.status,
    attempts: record.attempts,
    response_code: record.responseCode,
    latency_ms: record.latencyMs,
    error: record.error,
    created_at: record.createdAt,
    last_attempt_at: record.lastAttemptAt,
    next_attempt_at: record.nextAttemptAt,
    delivered_at: record.deliveredAt,
  };
}
