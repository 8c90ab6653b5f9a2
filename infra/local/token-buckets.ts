import type { Throttle } from '#definitions/rate-limits.ts';

/**
 * Token buckets as API Gateway throttles: each key's bucket holds up to
 * `burstLimit` tokens, refills at `rateLimit` tokens per second, and a request
 * takes one or is refused. The clock is injectable for tests.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes a token from `key`'s bucket under `throttle`; false when the bucket is empty. */
  take(key: string, throttle: Throttle): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: throttle.burstLimit, updatedAt: now };
    const refilled = bucket.tokens + ((now - bucket.updatedAt) / 1000) * throttle.rateLimit;
    bucket.tokens = Math.min(throttle.burstLimit, refilled);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
