import { queueDefinitions } from '#definitions/queues.ts';
import type { DeliveryJob } from '#domain/webhook-delivery-records.ts';
import { deliverWebhook } from '#domain/webhook-dispatch.ts';
import { retryDelaySeconds } from '#domain/webhook-retry-schedule.ts';
import { configuration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import { type CountMetric, count } from '#platform/observability.ts';
import { configuredUrlPolicy } from '#platform/ssrf.ts';
import { type Consumed, type Delivery, done, retryAfter } from './queue-message.ts';

const MAX_ATTEMPTS = queueDefinitions.webhooks.maxReceiveCount;

const OUTCOME_METRICS: Record<Awaited<ReturnType<typeof deliverWebhook>>['outcome'], CountMetric> = {
  delivered: 'WebhookDelivered',
  retry: 'WebhookRetried',
  gone: 'WebhookGone',
  dropped: 'WebhookDropped',
};

/** The delivery job of a queue message's body; null when it names none. */
export function deliveryJobOf(body: string): DeliveryJob | null {
  try {
    const job = JSON.parse(body) as DeliveryJob;
    const ids = [job.orgId, job.webhookId, job.deliveryId, job.generation];
    return ids.every((id) => Number.isSafeInteger(id)) && typeof job.eventId === 'string' ? job : null;
  } catch {
    return null;
  }
}

/** What makes two messages the same job: one delivery's one generation. */
export const deliveryJobKey = (job: DeliveryJob): string =>
  `${job.orgId}/${job.webhookId}/${job.deliveryId}/${job.generation}`;

/**
 * The webhooks queue's consumer: one delivery attempt. A failed attempt comes
 * back after its step of the retry schedule; after the queue's receive limit
 * it goes to the dead-letter queue (`outreach-admin webhook redrive` replays
 * it).
 */
export async function dispatchWebhookDelivery(job: DeliveryJob, { attempt }: Delivery): Promise<Consumed> {
  const schedule = configuration().webhooks.retryScheduleSeconds;
  try {
    const result = await deliverWebhook(job, {
      attempt,
      maxAttempts: MAX_ATTEMPTS,
      schedule,
      policy: configuredUrlPolicy(),
    });
    count(OUTCOME_METRICS[result.outcome]);
    return result.outcome === 'retry' ? retryAfter(result.delaySeconds) : done;
  } catch (error) {
    // The table failed us, not the subscriber: try again on the same schedule.
    logger.warn('Webhook dispatch failed; will retry', {
      deliveryId: job.deliveryId,
      attempt,
      errorName: (error as Error).name,
    });
    return retryAfter(retryDelaySeconds(schedule, attempt));
  }
}
