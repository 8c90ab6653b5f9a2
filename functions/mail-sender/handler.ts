import { defineQueueConsumer } from '#api/queues/consumer.ts';
import { retryMessageAfter } from '#platform/queue-retries.ts';
import { mailJobOf, sendQueuedReply } from '#use-cases/send-queued-reply.ts';

/** The mail queue's consumer (shared/use-cases/send-queued-reply.ts). */
export const handler = defineQueueConsumer({
  queue: 'mail',
  parse: (record) => mailJobOf(record.body),
  // A message that can never be delivered is dropped, not retried forever.
  malformed: 'Discarding a malformed mail job',
  bringBack: retryMessageAfter,
  consume: sendQueuedReply,
});
