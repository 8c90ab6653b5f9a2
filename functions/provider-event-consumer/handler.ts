import { defineQueueConsumer } from '#api/queues/consumer.ts';
import { consumeProviderWebhook, queuedProviderWebhookOf } from '#use-cases/consume-provider-webhook.ts';

/**
 * The provider events queue's consumer (shared/use-cases/consume-provider-webhook.ts):
 * a batch's webhooks one at a time, in order; one whose recording failed comes
 * back after the queue's visibility timeout (it never paces a retry, so no `bringBack`).
 */
export const handler = defineQueueConsumer({
  queue: 'providerEvents',
  parse: (record) => queuedProviderWebhookOf(record.messageAttributes, record.body),
  malformed: 'Discarding a malformed provider events message',
  consume: consumeProviderWebhook,
});
