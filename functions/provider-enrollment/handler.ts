import { defineQueueConsumer } from '#api/queues/consumer.ts';
import { retryMessageAfter } from '#platform/queue-retries.ts';
import { providerWorkOf, workProviderQueue } from '#use-cases/work-provider-queue.ts';

/** The enrollment queue's consumer (shared/use-cases/work-provider-queue.ts). */
export const handler = defineQueueConsumer({
  queue: 'enrollment',
  parse: (record) => providerWorkOf(record.body),
  malformed: 'Discarding a malformed enrollment message',
  bringBack: retryMessageAfter,
  consume: workProviderQueue,
});
