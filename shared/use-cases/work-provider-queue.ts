import { queueDefinitions } from '#definitions/queues.ts';
import { processProviderWork } from '#domain/enrollment.ts';
import { logger } from '#platform/logger.ts';
import { sendDelayed } from '#platform/queue-retries.ts';
import { backoffSeconds } from '#platform/retry.ts';
import { type ProviderWorkMessage, providerWorkMessage } from '#schemas/provider-work-message.ts';
import { type Consumed, type Delivery, done, retryAfter } from './queue-message.ts';

/** Time kept free at the end of an invocation to record outcomes and put work back. */
const RESERVE_MS = 20_000;
const RETRY_BASE_SECONDS = 2;
const RETRY_CAP_SECONDS = 15 * 60;
/** SQS's longest message delay. */
const MAX_DELAY_SECONDS = 900;

/** When the invocation ends: as Lambda says, or its timeout after it began. */
const invocationEnd = (delivery: Delivery): number =>
  delivery.invocationEndsAt ?? delivery.invokedAt + queueDefinitions.enrollment.consumerTimeoutSeconds * 1000;

/** The work of a queue message's body; null when it is none. */
export function providerWorkOf(body: string): ProviderWorkMessage | null {
  try {
    const parsed = providerWorkMessage.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The enrollment queue's consumer (docs/providers.md#enrollment): enrolls
 * scheduled assignments in their provider campaigns and stops leads, one
 * message at a time. Work put off (a 429's Retry-After, the end of the time
 * budget) goes back as a new delayed message, so waiting does not use up
 * receives; a provider that is unavailable makes the message come back with
 * backoff, and its last receive records the enrollments as failed.
 */
export async function workProviderQueue(message: ProviderWorkMessage, delivery: Delivery): Promise<Consumed> {
  const backoff = () => retryAfter(backoffSeconds(delivery.attempt, RETRY_BASE_SECONDS, RETRY_CAP_SECONDS));
  try {
    const outcome = await processProviderWork(
      { message, receiveCount: delivery.attempt },
      { deadline: invocationEnd(delivery) - RESERVE_MS },
    );
    if (outcome.kind === 'retry') return backoff();
    if (outcome.kind === 'defer') {
      await sendDelayed(
        'enrollment',
        JSON.stringify(outcome.message),
        Math.min(MAX_DELAY_SECONDS, outcome.delaySeconds),
      );
    }
    return done;
  } catch (error) {
    logger.warn('Provider work failed; will retry', {
      orgId: message.orgId,
      kind: message.kind,
      receiveCount: delivery.attempt,
      errorName: error instanceof Error ? error.name : 'Error',
    });
    return backoff();
  }
}
