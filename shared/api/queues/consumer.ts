import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueName } from '#definitions/queues.ts';
import { logger } from '#platform/logger.ts';
import { observed } from '#platform/observability.ts';
import type { Consumed, Delivery } from '#use-cases/queue-message.ts';

/**
 * The SQS side of a queue's consumer, as `defineEndpoint` is the HTTP side of
 * a route: it reads each record into its message, hands it to the use case,
 * and answers Lambda with the records that must come back (partial batch
 * response), each after the wait the use case chose. What to do with a
 * message, and when to try again, is the use case's; a failure it did not
 * answer itself comes back after the queue's visibility timeout.
 */

export interface QueueConsumer<M> {
  queue: QueueName;
  /** The record's message; null for one that can never be handled: logged as `malformed` and dropped. */
  parse(record: SQSRecord): M | null;
  malformed: string;
  consume(message: M, delivery: Delivery): Promise<Consumed>;
  /**
   * Makes a received message visible again after a wait (retryMessageAfter of
   * #platform/queue-retries.ts), for a use case that paces its retries; without
   * it a message comes back after the queue's visibility timeout. The function
   * gives it, so a consumer that never paces does not bundle its loading.
   */
  bringBack?(queue: QueueName, receiptHandle: string, delaySeconds: number): Promise<void>;
}

type Consume = (record: SQSRecord, message: unknown) => Promise<string | undefined>;

/**
 * Consumes one record: undefined when it is done with, its message id when it
 * must come back. A use case answers its own failures (Consumed); one that
 * throws fails the whole batch, whose every message comes back.
 */
function recordConsumer<M>(consumer: QueueConsumer<M>, context: Context): Consume {
  const invokedAt = Date.now();
  const remaining = context.getRemainingTimeInMillis?.();
  const invocationEndsAt = remaining === undefined ? undefined : invokedAt + remaining;
  return async (record, message) => {
    if (message === null) {
      logger.error(consumer.malformed, { messageId: record.messageId });
      return undefined;
    }
    const attempt = Number(record.attributes.ApproximateReceiveCount ?? 1);
    const consumed = await consumer.consume(message as M, { attempt, invokedAt, invocationEndsAt });
    if (consumed.kind === 'done') return undefined;
    if (consumed.delaySeconds !== null) {
      // Without it the queue's own visibility timeout still brings the message back.
      await consumer
        .bringBack?.(consumer.queue, record.receiptHandle, consumed.delaySeconds)
        .catch(() => undefined);
    }
    return record.messageId;
  };
}

const failuresOf = (failed: (string | undefined)[]): SQSBatchResponse['batchItemFailures'] =>
  failed.flatMap((messageId) => (messageId === undefined ? [] : [{ itemIdentifier: messageId }]));

/** A consumer that takes a batch's messages one at a time, in order. */
export function defineQueueConsumer<M>(consumer: QueueConsumer<M>) {
  return observed(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const consume = recordConsumer(consumer, context);
    const failed: (string | undefined)[] = [];
    for (const record of event.Records) failed.push(await consume(record, consumer.parse(record)));
    return { batchItemFailures: failuresOf(failed) };
  });
}

/**
 * A consumer that takes a batch's messages at once (a slow one does not hold
 * up the others), and copies of one message (the same `key`: SQS delivers at
 * least once) once: in parallel, each copy would act on the same state. The
 * extra copies are done with; if the one consumed fails, it alone comes back.
 */
export function defineConcurrentQueueConsumer<M>(consumer: QueueConsumer<M>, key: (message: M) => string) {
  return observed(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const consume = recordConsumer(consumer, context);
    const seen = new Set<string>();
    const distinct = event.Records.map((record) => ({ record, message: consumer.parse(record) })).filter(
      ({ record, message }) => {
        const id = message === null ? record.messageId : key(message);
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      },
    );
    const failed = await Promise.all(distinct.map(({ record, message }) => consume(record, message)));
    return { batchItemFailures: failuresOf(failed) };
  });
}
