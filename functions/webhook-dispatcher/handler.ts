import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type DeliveryJob, deliverWebhook } from '#shared/domain/webhook-deliveries.ts';
import { logger } from '#shared/logger.ts';
import { queueUrl, sqs } from '#shared/queue-client.ts';
import { queueDefinitions } from '#shared/queues.ts';
import { parseRetrySchedule, retryDelaySeconds } from '#shared/webhooks/retry-schedule.ts';
import { urlPolicyFromEnvironment } from '#shared/webhooks/ssrf.ts';

const schedule = parseRetrySchedule(process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS);
const policy = urlPolicyFromEnvironment();
const MAX_ATTEMPTS = queueDefinitions.webhooks.maxReceiveCount;

function parseJob(record: SQSRecord): DeliveryJob | null {
  try {
    const job = JSON.parse(record.body) as DeliveryJob;
    const ids = [job.orgId, job.webhookId, job.deliveryId, job.generation];
    return ids.every((id) => Number.isSafeInteger(id)) && typeof job.eventId === 'string' ? job : null;
  } catch {
    return null;
  }
}

/** Brings a failed record back after `seconds`; without it the queue's own visibility timeout still does. */
async function retryAfter(record: SQSRecord, seconds: number): Promise<void> {
  await sqs
    .send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl('webhooks'),
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: seconds,
      }),
    )
    .catch(() => undefined);
}

/** One record: undefined when it is done with, its message id when it must come back. */
async function dispatch(record: SQSRecord): Promise<string | undefined> {
  const job = parseJob(record);
  if (!job) {
    // A message that can never be delivered is dropped, not retried forever.
    logger.error('Discarding a malformed webhook job', { messageId: record.messageId });
    return undefined;
  }
  const attempt = Number(record.attributes.ApproximateReceiveCount ?? 1);
  try {
    const result = await deliverWebhook(job, { attempt, maxAttempts: MAX_ATTEMPTS, schedule, policy });
    if (result.outcome !== 'retry') return undefined;
    await retryAfter(record, result.delaySeconds);
    return record.messageId;
  } catch (error) {
    // The table failed us, not the subscriber: try again on the same schedule.
    logger.warn('Webhook dispatch failed; will retry', {
      deliveryId: job.deliveryId,
      attempt,
      errorName: (error as Error).name,
    });
    await retryAfter(record, retryDelaySeconds(schedule, attempt));
    return record.messageId;
  }
}

/**
 * The webhook dispatcher: sends a batch's deliveries in parallel (a slow
 * subscriber does not hold up the others) and reports only the records that
 * must be tried again (partial batch response), each brought back after its
 * step of the retry schedule. After the queue's receive limit a record goes
 * to the dead-letter queue (`outreach-admin webhook redrive` replays it).
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failed = await Promise.all(event.Records.map(dispatch));
  return {
    batchItemFailures: failed.flatMap((messageId) =>
      messageId === undefined ? [] : [{ itemIdentifier: messageId }],
    ),
  };
};
