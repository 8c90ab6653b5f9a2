import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#store/keys.ts';
import {
  DYNAMODB_LIMITS,
  type HotItemsReport,
  hotItemsCounts,
  itemBytes,
  measureHotItems,
  renderHotItems,
} from '../../bench/hot-items.ts';

/*
 * The bench's hot items section (bench/hot-items.ts), small: 300 provider
 * events for one organization from 8 writers against DynamoDB Local. It checks
 * what the report must hold whatever the machine's speed (never a time): every
 * event counted once, the writes per item adding up, and the projection finite.
 * On today's design every counter-changing event writes the organization's
 * analytics item and its campaign's item, so those are the hottest.
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

  it('counts the writes per item, the analytics item once per event', () => {
    const analytics = keys.analytics(report.orgId);
    const analyticsItem = report.items.find((item) => item.pk === analytics.pk && item.sk === analytics.sk);
    expect(analyticsItem).toMatchObject({ scope: 'organization', writes: EVENTS, writesPerEvent: 1 });

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

    // Each campaign's item: written by each event of its campaign, by no other.
    const campaignItems = report.items.filter(
      (item) => item.pk === analytics.pk && item.sk.startsWith('CAMPAIGN#'),
    );
    expect(campaignItems.length).toBe(report.settings.campaigns);
    for (const item of campaignItems) expect(item).toMatchObject({ scope: 'campaign', writesPerEvent: 1 });
    // The organization's partition holds both, so it takes the most write units per event.
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
    expect(organization.hottestItem).toMatchObject(analytics);
    expect(organization.busiestItem).toMatchObject({ ...analytics, writesPerEvent: 1 });
    // One write a second per event a second: the budget's 300 writes/s is 300 events/s, far below the target.
    expect(organization.maxEventsPerSecondWithinBudget).toBe(300);
    expect(organization.writesPerSecondAtTarget).toBe(organization.targetEventsPerSecond);
    // One campaign's events load its own item and the organization's, both in the organization's partition.
    const campaign = report.projections.find((projection) => projection.scope === 'campaign')!;
    expect(campaign.hottestItem?.pk).toBe(analytics.pk);
    expect(campaign.hottestPartition?.pk).toBe(analytics.pk);
    expect(campaign.maxEventsPerSecondByPartition).toBeLessThan(organization.maxEventsPerSecondByPartition!);

    const contention = Object.entries(report.contention).filter(([name]) => name !== 'transactWriteMs');
    for (const [, count] of contention) expect(Number.isInteger(count) && (count as number) >= 0).toBe(true);

    const markdown = renderHotItems(report);
    expect(markdown).toContain('## Hot items');
    expect(markdown).toContain(`\`${analytics.pk}\` / \`${analytics.sk}\``);
  });
});

describe('the hot items settings and sizes', () => {
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
