import { MAX_VISIBILITY_SECONDS } from '#definitions/queues.ts';

// The default schedule and SQS's limit are definitions; a deployment's schedule is configuration.
export { DEFAULT_RETRY_SCHEDULE_SECONDS, MAX_VISIBILITY_SECONDS } from '#definitions/queues.ts';
export { parseRetrySchedule } from '#platform/config.ts';

/**
 * When a failed webhook delivery is tried again. The n-th failed attempt waits
 * the n-th step of the schedule (the last step repeats), give or take 10 %
 * jitter so that many deliveries failing together do not return together.
 * The default spans about 27.6 hours (at least 24.8 with jitter) over the 8
 * attempts the queue allows; each step fits SQS's 12-hour visibility limit.
 */

const JITTER = 0.1;

/** Seconds to wait after the `attempt`-th attempt (1-based) failed. */
export function retryDelaySeconds(
  schedule: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number {
  const step = schedule[Math.min(Math.max(attempt, 1), schedule.length) - 1] ?? 0;
  const jittered = step * (1 - JITTER + 2 * JITTER * random());
  return Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(jittered)));
}
