import { describe, expect, it } from 'vitest';
import { allocateId, allocateIds, reserveIdsUpTo } from '#store/ids.ts';

describe('id allocation', () => {
  it('never hands out the same id to concurrent callers', async () => {
    const batches = await Promise.all(
      Array.from({ length: 50 }, (_, index) => allocateIds('job', (index % 4) + 1)),
    );
    const ids = batches.flat();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true);
  });

  it('allocates consecutive ascending ids within one batch', async () => {
    const ids = await allocateIds('message', 5);
    expect(ids).toEqual([ids[0]!, ids[0]! + 1, ids[0]! + 2, ids[0]! + 3, ids[0]! + 4]);
  });

  it('keeps separate sequences per entity type', async () => {
    const campaign = await allocateId('campaign');
    const account = await allocateId('account');
    expect(campaign).toBe(1);
    expect(account).toBe(1);
  });

  it('skips past ids reserved by an import and never lowers the counter', async () => {
    await reserveIdsUpTo('contact', 500);
    await reserveIdsUpTo('contact', 100);
    expect(await allocateId('contact')).toBe(501);
  });
});
