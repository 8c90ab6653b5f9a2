import { logger } from '#platform/logger.ts';
import { type AttemptResult, postWebhook } from '#platform/outbound-http.ts';
import type { Resolver, UrlPolicy } from '#platform/ssrf.ts';
import { webhookDeliveries } from '#store/webhook-deliveries.ts';
import type { DeliveryJob } from './webhook-delivery-records.ts';
import { retryDelaySeconds } from './webhook-retry-schedule.ts';
import { webhookHeaders } from './webhook-signing.ts';
import { disableWebhook, recordWebhookFailure, recordWebhookSuccess, signingSecrets } from './webhooks.ts';

/**
 * The dispatcher sends a delivery, records the attempt on it, and tells the
 * queue when to try again.
 *
 * Primary course: 1. read delivery, subscription and event
 * 2. skip what is done, superseded or cancelled 3. sign and send 4. record
 * the attempt and the subscription's health 5. delivered, gone, or retry later.
 */

/** How the dispatcher runs an attempt. */
export interface DispatchContext {
  /** This message's receive count (1 on the first attempt). */
  attempt: number;
  /** The queue's receive limit: the last attempt before the dead-letter queue. */
  maxAttempts: number;
  schedule: readonly number[];
  policy: UrlPolicy;
  resolve?: Resolver;
  timeoutMs?: number;
}

/** What became of a queue message. */
export type DispatchOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'gone' }
  | { outcome: 'dropped'; reason: string }
  | { outcome: 'retry'; delaySeconds: number; final: boolean };

/** Records the attempt on the delivery, unless a redelivery since this attempt started owns it now. */
const recordAttempt = (job: DeliveryJob, fields: Record<string, unknown>, countAttempt: boolean) =>
  webhookDeliveries.recordAttempt(job.orgId, job, fields, countAttempt);

/**
 * Runs one delivery attempt for a queue message. A delivery is sent at most
 * once successfully per generation: a message for a delivered, superseded or
 * cancelled delivery is dropped. Infrastructure errors (the table) propagate.
 */
export async function deliverWebhook(job: DeliveryJob, context: DispatchContext): Promise<DispatchOutcome> {
  const { delivery, webhook, event } = await webhookDeliveries.readForDispatch(job.orgId, job);
  if (!delivery) return { outcome: 'dropped', reason: 'delivery not found' };
  if (job.generation < delivery.generation)
    return { outcome: 'dropped', reason: 'superseded by a redelivery' };
  if (delivery.status === 'delivered') return { outcome: 'dropped', reason: 'already delivered' };
  if (!webhook || (!webhook.enabled && !job.manual)) {
    const error = webhook ? 'webhook disabled' : 'webhook deleted';
    await recordAttempt(job, { status: 'cancelled', error, nextAttemptAt: null }, false);
    return { outcome: 'dropped', reason: error };
  }
  if (!event) {
    await recordAttempt(job, { status: 'failed', error: 'event no longer kept', nextAttemptAt: null }, false);
    return { outcome: 'dropped', reason: 'event no longer kept' };
  }

  const body = event.payload;
  const now = new Date();
  const result: AttemptResult = await postWebhook({
    url: webhook.url,
    body,
    headers: webhookHeaders({
      webhookId: job.eventId,
      timestampSeconds: Math.floor(now.getTime() / 1000),
      body,
      secrets: signingSecrets(webhook, now),
    }),
    policy: context.policy,
    resolve: context.resolve,
    timeoutMs: context.timeoutMs,
  });
  const attemptFields = {
    lastAttemptAt: now.toISOString(),
    responseCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
  };
  const trackHealth = webhook.enabled;
  logger.info('Webhook attempt', {
    orgId: job.orgId,
    webhookId: job.webhookId,
    deliveryId: job.deliveryId,
    attempt: context.attempt,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
  });

  if (result.ok) {
    await recordAttempt(
      job,
      { ...attemptFields, status: 'delivered', deliveredAt: new Date().toISOString(), nextAttemptAt: null },
      true,
    );
    if (trackHealth && webhook.failingSince) await recordWebhookSuccess(job.orgId, job.webhookId);
    return { outcome: 'delivered' };
  }
  if (result.statusCode === 410) {
    // The subscriber says the endpoint is gone for good: stop sending there.
    await recordAttempt(job, { ...attemptFields, status: 'failed', nextAttemptAt: null }, true);
    if (webhook.enabled) {
      await disableWebhook(
        job.orgId,
        job.webhookId,
        `The endpoint answered 410 Gone on ${now.toISOString()}`,
      );
    }
    return { outcome: 'gone' };
  }
  const final = context.attempt >= context.maxAttempts;
  const delaySeconds = final ? 0 : retryDelaySeconds(context.schedule, context.attempt);
  await recordAttempt(
    job,
    {
      ...attemptFields,
      status: final ? 'failed' : 'retrying',
      nextAttemptAt: final ? null : new Date(now.getTime() + delaySeconds * 1000).toISOString(),
    },
    true,
  );
  if (trackHealth) await recordWebhookFailure(job.orgId, job.webhookId, now);
  return { outcome: 'retry', delaySeconds, final };
}
