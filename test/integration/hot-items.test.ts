import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#store/keys.ts';
import {
  DYNAMODB_LIMITS,
  type HotItemsReport,
  hotItemsCounts,
  itemBytes,
  measureHotItems,
  overlappingTransactions,
  renderHotItems,
  type WriteWindow,
} from '../../bench/hot-items.ts';

/*
 * The bench's hot items section (bench/hot-items.ts), small: 300 provider
 * events for one organization from 8 writers against DynamoDB Local. It checks
 * what the report must hold whatever the machine's speed (never a time): every
 * event counted once, the writes per item adding up, and the projection finite.
 * The counters are sharded (shared/store/counter-shards.ts): an event writes
 * one of the organization's analytics shards and one of its campaign's, never
 * the analytics item or the campaign item, and message ids come in blocks, so
 * no item takes every event. Each writer holds a writer slot of its own, so no
 * two writers' transactions ever meet on an item.
 */

const EVENTS = 300;
const WRITERS = 8;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('the hot items section', () => {
  let report: HotItemsReport;
  beforeAll(async () => {
    report = await measureHotItems({ events: EVENTS, writers: WRITERS });
  }, 120_000);

  it('records every event once, through the one write path', () => {
    expect(report.settings).toMatchObject({ events: EVENTS, writers: WRITERS, assignments: EVENTS / 4 });
    expect(sum(Object.values(report.eventsByType))).toBe(EVENTS);
    expect(report.outcomes).toEqual({ applied: EVENTS, duplicate: 0, failed: {} });
    // At least the read of the assignment and its marker, and the transaction, per event.
    expect(report.requestsPerEvent.TransactWriteItems).toBeGreaterThanOrEqual(1);
    expect(report.requestsPerEvent.BatchGetItem).toBeGreaterThanOrEqual(1);
  });

  it('counts the writes per item, each counter shard taking a part of the events', () => {
    const analytics = keys.analytics(report.orgId);
    const isItem = (key: { pk: string; sk: string }) => (item: { pk: string; sk: string }) =>
      item.pk === key.pk && item.sk === key.sk;
    // Neither the analytics item nor a campaign's item is written by events any more.
    expect(report.items.find(isItem(analytics))).toBeUndefined();
    expect(report.items.filter((item) => /^CAMPAIGN#\d{16}$/.test(item.sk))).toEqual([]);
    const analyticsShards = report.items.filter((item) => item.pk.startsWith(`${analytics.pk}#ANALYTICS#`));
    for (const shard of analyticsShards) {
      // Its scope is the organization's unless, in so small a run, all its assignments are of one campaign.
      expect(shard.sk).toBe('ANALYTICS');
      // Each assignment's four events change organization counters, all on its writer's shard.
      expect(shard.writes % 4).toBe(0);
      expect(shard.writesPerEvent).toBeLessThan(1);
    }

    const writes = report.items.map((item) => item.writes);
    expect(writes).toEqual([...writes].sort((a, b) => b - a));
    expect(sum(writes)).toBeLessThanOrEqual(report.writes.itemWrites);
    expect(report.writes.itemWrites).toBeGreaterThan(report.writes.items);
    for (const item of report.items) {
      expect(item.share * report.writes.itemWrites).toBeCloseTo(item.writes, 6);
      // A transactional write takes twice the units of a standard one, never less than one.
      expect(item.writeUnits).toBeGreaterThanOrEqual(item.writes * item.unitsPerWrite);
      expect(item.writeUnits).toBeLessThanOrEqual(
        item.writes * item.unitsPerWrite * DYNAMODB_LIMITS.transactionalWriteFactor,
      );
      expect(item.bytes).toBeGreaterThan(0);
    }
    const [hottest] = report.items;
    expect(hottest!.writes).toBeGreaterThanOrEqual(EVENTS * hottest!.writesPerEvent);

    // A campaign's shards: written by events of that campaign only, each by a part of them.
    const campaignShards = report.items.filter(
      (item) => item.pk === analytics.pk && /^CAMPAIGN#\d{16}#SHARD#\d{2}$/.test(item.sk),
    );
    for (const shard of campaignShards) {
      expect(shard.scope).toBe('campaign');
      expect(shard.writesPerEvent).toBeLessThan(1);
    }
    // The organization's partition holds every campaign's shards (so the campaign list stays one Query).
    expect(report.partitions[0]).toMatchObject({ pk: analytics.pk, scope: 'organization' });
  });

  it('projects a finite, positive ceiling for one organization and one campaign', () => {
    const analytics = keys.analytics(report.orgId);
    for (const projection of report.projections) {
      for (const value of [
        projection.maxEventsPerSecondByItem,
        projection.maxEventsPerSecondByPartition,
        projection.maxEventsPerSecondWithinBudget,
      ]) {
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeGreaterThan(0);
      }
    }
    const organization = report.projections.find((projection) => projection.scope === 'organization')!;
    // No item takes every event: the busiest is a shard, well under one write per event (was 1).
    expect(organization.busiestItem!.writesPerEvent).toBeLessThan(0.25);
    expect(organization.maxEventsPerSecondWithinBudget).toBeGreaterThan(4 * 300);
    // An item of one campaign takes a part of its campaign's events only.
    const campaign = report.projections.find((projection) => projection.scope === 'campaign')!;
    expect(campaign.busiestItem!.writesPerEvent).toBeLessThan(1);
    // Message ids come a block of 100 at a time: the id counter takes a write per block, not per message.
    const service = report.projections.find((projection) => projection.scope === 'service')!;
    if (service.busiestItem) expect(service.busiestItem.writesPerEvent).toBeLessThan(0.05);

    const contention = Object.entries(report.contention).filter(
      ([name]) => name !== 'transactWriteMs' && name !== 'overlaps',
    );
    for (const [, count] of contention) expect(Number.isInteger(count) && (count as number) >= 0).toBe(true);

    const markdown = renderHotItems(report);
    expect(markdown).toContain('## Hot items');
    expect(markdown).toContain(`\`${analytics.pk}\``);
  });

  it('finds no two transactions on the same item at once: each writer writes the shards of its own slot', () => {
    const { overlaps } = report.contention;
    // Every event's transaction, and a retried one again.
    expect(overlaps.transactions).toBeGreaterThanOrEqual(EVENTS);
    // Whatever the timing: every other item a transaction writes is its event's own (the assignment, its
    // contact, the marker, new messages and outbox items), and the counters are the writer's slot's.
    expect(overlaps).toMatchObject({ overlapping: 0, share: 0, items: [] });
    const analyticsShards = report.items.filter((item) =>
      item.pk.startsWith(`ORG#${report.orgId}#ANALYTICS#`),
    );
    expect(analyticsShards.length).toBeLessThanOrEqual(WRITERS);
    // Each writer claimed its slot once (extensions come with time); slots are not an event's writes.
    expect(report.writes.writerSlots.applied).toBeGreaterThanOrEqual(WRITERS);
    expect(report.items.filter((item) => item.pk === keys.writerSlot(0).pk)).toEqual([]);
  });
});

describe('the hot items settings and sizes', () => {
  it('counts a transaction as overlapping when another write of one of its items was on the wire meanwhile', () => {
    const window = (start: number, end: number, keys: string[], transactional = true): WriteWindow => ({
      start,
      end,
      keys,
      transactional,
    });
    const first = window(0, 10, ['a', 'b']);
    const second = window(5, 15, ['b']);
    const apart = window(20, 30, ['b']);
    const elsewhere = window(0, 30, ['c']);
    const standard = window(25, 26, ['b'], false);
    const { overlapping, byItem } = overlappingTransactions([first, second, apart, elsewhere, standard]);
    // `apart` met the standard write; the standard write itself is not a transaction.
    expect(overlapping).toEqual(new Set([first, second, apart]));
    expect(byItem).toEqual(new Map([['b', 3]]));
    // Touching ends do not overlap.
    expect(overlappingTransactions([window(0, 10, ['a']), window(10, 20, ['a'])]).overlapping.size).toBe(0);
  });

  it('takes N and W from BENCH_HOT_EVENTS and BENCH_HOT_WRITERS', () => {
    expect(hotItemsCounts({})).toEqual({ events: 20_000, writers: 32 });
    expect(hotItemsCounts({ BENCH_HOT_EVENTS: '500', BENCH_HOT_WRITERS: '4' })).toEqual({
      events: 500,
      writers: 4,
    });
    expect(() => hotItemsCounts({ BENCH_HOT_EVENTS: '0' })).toThrow(/BENCH_HOT_EVENTS/);
  });

  it("sizes an item as DynamoDB does: names, values, and lists' and maps' overhead", () => {
    // pk 2 + 2; n 1 + (2 digits a byte, + 1) 3; m 1 + 3 + (a 1 + true 1 + 1); l 1 + 3 + ("x" 1 + 1)
    expect(
      itemBytes({
        pk: { S: 'ab' },
        n: { N: '123' },
        m: { M: { a: { BOOL: true } } },
        l: { L: [{ S: 'x' }] },
      }),
    ).toBe(4 + 4 + 7 + 6);
  });
});
