import { defineConcurrentQueueConsumer } from '#api/queues/consumer.ts';
import { retryMessageAfter } from '#platform/queue-retries.ts';
import {
  deliveryJobKey,
  deliveryJobOf,
  dispatchWebhookDelivery,
} from '#use-cases/dispatch-webhook-delivery.ts';

/**
 * The webhooks queue's consumer (shared/use-cases/dispatch-webhook-delivery.ts):
 * a batch's deliveries go out in parallel, so a slow subscriber does not hold
 * up the others, and copies of one job in a batch (SQS delivers at least once,
 * and a relay retry queues a delivery again) are sent once.
 */
export const handler = defineConcurrentQueueConsumer(
  {
    queue: 'webhooks',
    parse: (record) => deliveryJobOf(record.body),
    // A message that can never be delivered is dropped, not retried forever.
    malformed: 'Discarding a malformed webhook job',
    bringBack: retryMessageAfter,
    consume: dispatchWebhookDelivery,
  },
  deliveryJobKey,
);
