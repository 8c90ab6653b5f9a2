import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, TokenBuckets } from '../../infra/local/token-buckets.ts';

describe('the local gateway token buckets', () => {
  const throttle = { rateLimit: 2, burstLimit: 3 };

  it('lets a burst through, then refills at the rate, never above the burst', () => {
    let now = 0;
    const buckets = new TokenBuckets(() => now);
    expect([1, 2, 3, 4].map(() => buckets.take('a', throttle))).toEqual([true, true, true, false]);
    now += 500; // half a second at 2/s: one token
    expect([buckets.take('a', throttle), buckets.take('a', throttle)]).toEqual([true, false]);
    now += 60_000; // a long pause fills the bucket to the burst, not beyond
    expect([1, 2, 3, 4].map(() => buckets.take('a', throttle))).toEqual([true, true, true, false]);
  });

  it('keeps one bucket per key', () => {
    const buckets = new TokenBuckets(() => 0);
    for (let i = 0; i < 3; i++) buckets.take('a', throttle);
    expect(buckets.take('a', throttle)).toBe(false);
    expect(buckets.take('b', throttle)).toBe(true);
  });

  it('says what remains, when the bucket is full again and when to retry', () => {
    let now = 0;
    const buckets = new TokenBuckets(() => now);
    expect(buckets.admit('a', throttle)).toEqual({
      allowed: true,
      remaining: 2,
      fullInSeconds: 1,
      nextInSeconds: 1,
    });
    buckets.admit('a', throttle);
    buckets.admit('a', throttle);
    const refused = buckets.admit('a', throttle);
    expect(refused).toEqual({ allowed: false, remaining: 0, fullInSeconds: 2, nextInSeconds: 1 });
    expect(rateLimitHeaders(throttle, refused)).toEqual({
      'RateLimit-Policy': '"organization";q=3;w=2',
      RateLimit: '"organization";r=0;t=2',
      'Retry-After': '1',
    });
    now += 250; // half a token at 2/s
    expect(buckets.admit('a', throttle)).toMatchObject({ allowed: false, remaining: 0 });
    expect(
      rateLimitHeaders(
        { rateLimit: 0.5, burstLimit: 1 },
        { allowed: false, remaining: 0, fullInSeconds: 2, nextInSeconds: 2 },
      ),
    ).toMatchObject({ 'Retry-After': '2' });
  });
});
