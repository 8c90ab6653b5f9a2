import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { queueDefinitions } from '#definitions/queues.ts';
import type { DeliveryJob } from '#domain/webhook-delivery-records.ts';
import { deliverWebhook } from '#domain/webhook-dispatch.ts';
import { retryDelaySeconds } from '#domain/webhook-retry-schedule.ts';
import { configuration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import { type CountMetric, count, observed } from '#platform/observability.ts';
import { retryMessageAfter } from '#platform/queue-retries.ts';
import { configuredUrlPolicy } from '#platform/ssrf.ts';

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
  await retryMessageAfter('webhooks', record.receiptHandle, seconds).catch(() => undefined);
}

const OUTCOME_METRICS: Record<Awaited<ReturnType<typeof deliverWebhook>>['outcome'], CountMetric> = {
  delivered: 'WebhookDelivered',
  retry: 'WebhookRetried',
  gone: 'WebhookGone',
  dropped: 'WebhookDropped',
};

/** One record: undefined when it is done with, its message id when it must come back. */
async function dispatch(record: SQSRecord): Promise<string | undefined> {
  const job = parseJob(record);
  if (!job) {
    // A message that can never be delivered is dropped, not retried forever.
    logger.error('Discarding a malformed webhook job', { messageId: record.messageId });
    return undefined;
  }
  const attempt = Number(record.attributes.ApproximateReceiveCount ?? 1);
  const schedule = configuration().webhooks.retryScheduleSeconds;
  try {
    const result = await deliverWebhook(job, {
      attempt,
      maxAttempts: MAX_ATTEMPTS,
      schedule,
      policy: configuredUrlPolicy(),
    });
    count(OUTCOME_METRICS[result.outcome]);
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

/** A record's delivery job (delivery and generation), or the record's own id when it is malformed. */
function jobKey(record: SQSRecord): string {
  const job = parseJob(record);
  return job ? `${job.orgId}/${job.webhookId}/${job.deliveryId}/${job.generation}` : record.messageId;
}

/**
 * The webhook dispatcher: sends a batch's deliveries in parallel (a slow
 * subscriber does not hold up the others) and reports only the records that
 * must be tried again (partial batch response), each brought back after its
 * step of the retry schedule. After the queue's receive limit a record goes
 * to the dead-letter queue (`outreach-admin webhook redrive` replays it).
 *
 * Copies of one job in a batch (SQS delivers at least once, and a relay retry
 * queues a delivery again) are sent once: in parallel, each copy would read
 * the delivery as not yet delivered and send it. The extra copies are done
 * with; if the one sent fails, it alone comes back.
 */
export const handler = observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const seen = new Set<string>();
  const distinct = event.Records.filter((record) => {
    const key = jobKey(record);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const failed = await Promise.all(distinct.map(dispatch));
  return {
    batchItemFailures: failed.flatMap((messageId) =>
      messageId === undefined ? [] : [{ itemIdentifier: messageId }],
    ),
  };
});
