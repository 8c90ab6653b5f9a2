import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueName } from '#definitions/queues.ts';
import { logger } from '#platform/logger.ts';
import { type LambdaHandler, lambdaHandler } from '#platform/observability.ts';
import type { Consumed, Delivery } from '#use-cases/queue-message.ts';

/**
 * The SQS side of a queue's consumer, as `defineEndpoint` is the HTTP side of
 * a route: it reads each record into its message, hands it to the use case,
 * and answers Lambda with the records that must come back (Powertools Batch:
 * a partial batch response), each after the wait the use case chose. What to
 * do with a message, and when to try again, is the use case's; a failure it
 * did not answer itself comes back after the queue's visibility timeout.
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

/**
 * How a record the use case answered `retry` fails in the batch processor,
 * which reports a record as failed when its handler throws. It is no fault:
 * the use case chose it, and made the message visible again when it chose a wait.
 */
class RetryRequested extends Error {
  override readonly name = 'RetryRequested';
}

/**
 * Consumes one record: returns when it is done with (or malformed, dropped),
 * throws RetryRequested when it must come back, and whatever the use case
 * threw when it answered nothing.
 */
function recordConsumer<M>(consumer: QueueConsumer<M>, context: Context) {
  const invokedAt = Date.now();
  const remaining = context.getRemainingTimeInMillis?.();
  const invocationEndsAt = remaining === undefined ? undefined : invokedAt + remaining;
  return async (record: SQSRecord, message: M | null): Promise<void> => {
    if (message === null) {
      logger.error(consumer.malformed, { messageId: record.messageId });
      return;
    }
    const attempt = Number(record.attributes.ApproximateReceiveCount ?? 1);
    const consumed = await consumer.consume(message, { attempt, invokedAt, invocationEndsAt });
    if (consumed.kind === 'done') return;
    if (consumed.delaySeconds !== null) {
      // Without it the queue's own visibility timeout still brings the message back.
      await consumer
        .bringBack?.(consumer.queue, record.receiptHandle, consumed.delaySeconds)
        .catch(() => undefined);
    }
    throw new RetryRequested(record.messageId);
  };
}

/**
 * The records' partial batch response, consumed in order or all at once. A
 * use case that threw answered nothing: the invocation fails with its error
 * (a function error, which the function's alarm counts), and Lambda brings
 * the whole batch back, as before the batch processor reported anything.
 */
async function consumeBatch<M>(
  consumer: QueueConsumer<M>,
  records: readonly { record: SQSRecord; message: M | null }[],
  context: Context,
  processInParallel: boolean,
): Promise<SQSBatchResponse> {
  const consume = recordConsumer(consumer, context);
  const messages = new Map(records.map(({ record, message }) => [record.messageId, message]));
  const processor = new BatchProcessor(EventType.SQS);
  const response = await processPartialResponse(
    { Records: records.map(({ record }) => record) },
    (record: SQSRecord) => consume(record, messages.get(record.messageId) ?? null),
    processor,
    // A batch whose every record comes back is answered as one, not thrown: retries are no function error.
    { processInParallel, throwOnFullBatchFailure: false },
  );
  const unanswered = processor.errors.find((error) => !(error instanceof RetryRequested));
  if (unanswered) throw unanswered;
  return response;
}

/** A consumer that takes a batch's messages one at a time, in order. */
export function defineQueueConsumer<M>(
  consumer: QueueConsumer<M>,
): LambdaHandler<SQSEvent, SQSBatchResponse> {
  return lambdaHandler(async (event: SQSEvent, context: Context) =>
    consumeBatch(
      consumer,
      event.Records.map((record) => ({ record, message: consumer.parse(record) })),
      context,
      false,
    ),
  );
}

/**
 * A consumer that takes a batch's messages at once (a slow one does not hold
 * up the others), and copies of one message (the same `key`: SQS delivers at
 * least once) once: in parallel, each copy would act on the same state. The
 * extra copies are done with; if the one consumed fails, it alone comes back.
 */
export function defineConcurrentQueueConsumer<M>(
  consumer: QueueConsumer<M>,
  key: (message: M) => string,
): LambdaHandler<SQSEvent, SQSBatchResponse> {
  return lambdaHandler(async (event: SQSEvent, context: Context) => {
    const seen = new Set<string>();
    const distinct = event.Records.map((record) => ({ record, message: consumer.parse(record) })).filter(
      ({ record, message }) => {
        const id = message === null ? record.messageId : key(message);
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      },
    );
    return consumeBatch(consumer, distinct, context, true);
  });
}
