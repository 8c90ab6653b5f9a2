import type { Throttle } from '#definitions/rate-limits.ts';

/**
 * Token buckets as API Gateway throttles: each key's bucket holds up to
 * `burstLimit` tokens, refills at `rateLimit` tokens per second, and a request
 * takes one or is refused. The clock is injectable for tests.
 */

/** A request's turn at a bucket, and what the bucket holds after it (the RateLimit headers say it). */
export interface Admission {
  allowed: boolean;
  /** Whole requests the bucket would let through now. */
  remaining: number;
  /** Seconds, rounded up, until the bucket is full again. */
  fullInSeconds: number;
  /** Seconds, rounded up (at least 1), until the next request would be let through. */
  nextInSeconds: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes a token from `key`'s bucket under `throttle`, unless the bucket is empty. */
  admit(key: string, throttle: Throttle): Admission {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: throttle.burstLimit, updatedAt: now };
    const refilled = bucket.tokens + ((now - bucket.updatedAt) / 1000) * throttle.rateLimit;
    bucket.tokens = Math.min(throttle.burstLimit, refilled);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      remaining: Math.floor(bucket.tokens),
      fullInSeconds: Math.ceil((throttle.burstLimit - bucket.tokens) / throttle.rateLimit),
      nextInSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / throttle.rateLimit)),
    };
  }

  /** Takes a token from `key`'s bucket under `throttle`; false when the bucket is empty. */
  take(key: string, throttle: Throttle): boolean {
    return this.admit(key, throttle).allowed;
  }
}

/**
 * The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) of an
 * organization's bucket: the policy is the burst as the quota over the time
 * the bucket takes to fill (`w`), and the state is what remains (`r`) and when
 * the quota is whole again (`t`). A refusal adds Retry-After: when the next
 * request would pass.
 */
export function rateLimitHeaders(throttle: Throttle, admission: Admission): Record<string, string> {
  const window = Math.max(1, Math.ceil(throttle.burstLimit / throttle.rateLimit));
  return {
    'RateLimit-Policy': `"organization";q=${throttle.burstLimit};w=${window}`,
    RateLimit: `"organization";r=${admission.remaining};t=${admission.fullInSeconds}`,
    ...(admission.allowed ? {} : { 'Retry-After': String(admission.nextInSeconds) }),
  };
}
