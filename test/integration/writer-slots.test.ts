import { describe, expect, it } from 'vitest';
import { WriterSlotLease } from '#domain/writer-slot-lease.ts';
import { WRITER_SLOTS } from '#store/counter-shards.ts';
import { type WriterSlotStore, writerSlots } from '#store/writer-slots.ts';
import { countRequests } from '../support/request-counter.ts';

/*
 * Writer slots against DynamoDB Local (shared/domain/writer-slot-lease.ts):
 * concurrent writers get slots of their own, a claim is kept without a request
 * per event, extended before it lapses, lost when another process took it over
 * after it lapsed, and a writer without one goes on (hashed shards) instead of
 * failing. Each test's clock starts a year after the previous test's, so the
 * claims an earlier test left have lapsed for it (a claim lapses by the clock
 * of whoever reads it).
 */

const CLAIM_MS = 30_000;

/** A clock that moves only when told; each test starts at its own hour. */
function clockAt(start: number) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('writer slots', () => {
  it('give concurrent writers a slot each, and none to one writer more than there are slots', async () => {
    const clock = clockAt(Date.UTC(2030, 0, 1));
    const leases = Array.from({ length: WRITER_SLOTS + 1 }, () => new WriterSlotLease({ now: clock.now }));
    const slots = await Promise.all(leases.map((lease) => lease.slot()));
    const held = slots.filter((slot) => slot !== null);
    expect(held).toHaveLength(WRITER_SLOTS);
    expect(new Set(held).size).toBe(WRITER_SLOTS);
    expect(slots.filter((slot) => slot === null)).toHaveLength(1);
  });

  it('keep a slot without a request per event, and extend it once less than half of it is left', async () => {
    const clock = clockAt(Date.UTC(2031, 0, 1));
    const lease = new WriterSlotLease({ now: clock.now });
    const first = await lease.slot();
    expect(first).not.toBeNull();

    const steady = await countRequests(async () => {
      for (let event = 0; event < 20; event++) expect(await lease.slot()).toBe(first);
    });
    expect(steady.count).toBe(0);

    clock.advance(CLAIM_MS / 2);
    const extended = await countRequests(() => lease.slot());
    expect(extended.result).toBe(first);
    expect(extended.byCommand).toEqual({ UpdateItem: 1 });

    // Extended from then on: another writer a full claim later still finds it held.
    clock.advance(CLAIM_MS / 2 + 1_000);
    const other = new WriterSlotLease({ now: clock.now });
    expect(await other.slot()).not.toBe(first);
  });

  it('let a lapsed claim go to another writer, and the one that lost it claim another', async () => {
    const clock = clockAt(Date.UTC(2032, 0, 1));
    // Everyone else's slots are held: only the first writer's can change hands.
    const first = new WriterSlotLease({ now: clock.now });
    const slot = await first.slot();
    const others = Array.from({ length: WRITER_SLOTS - 1 }, () => new WriterSlotLease({ now: clock.now }));
    await Promise.all(others.map((lease) => lease.slot()));

    // The first writer is frozen past its claim's end, the others keep theirs.
    clock.advance(CLAIM_MS);
    await Promise.all(others.map((lease) => lease.slot()));
    const newcomer = new WriterSlotLease({ now: clock.now });
    expect(await newcomer.slot()).toBe(slot);

    // Thawed, the first one cannot extend what it lost; every slot is held, so it goes on without one.
    expect(await first.slot()).toBeNull();
    // It does not look again at once: the next events ask nothing of the table.
    const waiting = await countRequests(() => first.slot());
    expect(waiting).toMatchObject({ result: null, count: 0 });
  });

  it('leave a writer without a slot, not failing, when the table refuses', async () => {
    const failing: WriterSlotStore = {
      ...writerSlots,
      claims: () => Promise.reject(new Error('table unreachable')),
    };
    const lease = new WriterSlotLease({ store: failing, now: clockAt(Date.UTC(2033, 0, 1)).now });
    expect(await lease.slot()).toBeNull();
  });

  it('share one claim between the concurrent callers of one writer', async () => {
    const lease = new WriterSlotLease({ now: clockAt(Date.UTC(2034, 0, 1)).now });
    const counted = await countRequests(() => Promise.all(Array.from({ length: 5 }, () => lease.slot())));
    expect(new Set(counted.result).size).toBe(1);
    expect(counted.byCommand.Query).toBe(1);
  });
});
