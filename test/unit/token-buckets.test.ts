import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../infra/local/token-buckets.ts';

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
});
