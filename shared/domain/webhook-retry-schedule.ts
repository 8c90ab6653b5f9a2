/**
 * When a failed webhook delivery is tried again. The n-th failed attempt waits
 * the n-th step of the schedule (the last step repeats), give or take 10 %
 * jitter so that many deliveries failing together do not return together.
 * The default spans about 27.6 hours (at least 24.8 with jitter) over the 8
 * attempts the queue allows; each step fits SQS's 12-hour visibility limit.
 */

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

/** SQS's maximum visibility timeout: no single wait may be longer. */
export const MAX_VISIBILITY_SECONDS = 12 * 60 * 60;

const JITTER = 0.1;

/**
 * Parses a schedule such as `1,1,2` (WEBHOOK_RETRY_SCHEDULE_SECONDS: local
 * stacks and tests retry within seconds); the default when absent.
 */
export function parseRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  const steps = raw.split(',').map((part) => Number(part.trim()));
  if (
    steps.length === 0 ||
    steps.some((step) => !Number.isSafeInteger(step) || step < 0 || step > MAX_VISIBILITY_SECONDS)
  ) {
    throw new Error(
      `WEBHOOK_RETRY_SCHEDULE_SECONDS must be comma-separated whole seconds from 0 to ${MAX_VISIBILITY_SECONDS}, got ${JSON.stringify(raw)}`,
    );
  }
  return steps;
}

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
