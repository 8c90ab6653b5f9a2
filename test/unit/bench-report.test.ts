import { describe, expect, it } from 'vitest';
import type { BundleFigures, BundleReport } from '../../bench/bundles.ts';
import { attempt, exitCodeOf } from '../../bench/failures.ts';
import type { FloorResult } from '../../bench/floor.ts';
import { type LoadResult, pairedRatio } from '../../bench/load.ts';
import {
  type BenchReport,
  benchFailures,
  type EndpointRow,
  renderEnrollment,
  renderMarkdown,
} from '../../bench/report.ts';
import type { SustainedResult } from '../../bench/sustained.ts';

/*
 * The bench's rule (bench/failures.ts): a measurement that failed is reported
 * as "failed: <why>", never as a figure, and makes `npm run bench` exit
 * non-zero. Checked on the report's data alone, without running the bench.
 */

const load = (overrides: Partial<LoadResult> = {}): LoadResult => ({
  p50: 14.38,
  p95: 25.19,
  p99: 33,
  requests: 2065,
  requestsPerSecond: 513.7,
  unexpected: 0,
  errors: 0,
  statuses: { '200': 2065 },
  durationSeconds: 4.02,
  ...overrides,
});

const floor = (overrides: Partial<FloorResult> = {}): FloorResult => ({
  p50: 0.74,
  p95: 1.31,
  p99: 2.9,
  seconds: 1,
  operations: 1804,
  calls: 1804,
  refused: 0,
  errors: 0,
  ...overrides,
});

const row = (overrides: Partial<EndpointRow> = {}): EndpointRow => ({
  endpoint: 'GET /public/v1/campaigns',
  route: 'list-campaigns',
  api: load(),
  floor: floor(),
  ratio: { p50: 19.4, p95: 19.2, p99: 11.4 },
  dynamodb: { requests: 1, byOperation: { Query: 1 }, perRecording: [1] },
  drainSeconds: 0,
  ...overrides,
});

const bundle = (name: string, overrides: Partial<BundleFigures> = {}): BundleFigures => ({
  function: name,
  entry: `functions/${name}/handler.ts`,
  initKiB: 230.5,
  gzippedInitKiB: 77,
  shippedKiB: 284.6,
  coldImportMs: 35,
  coldImportMinMs: 31.7,
  coldImportMaxMs: 48.3,
  sizeRatio: 1.04,
  importRatio: 0.93,
  medianImportRatio: 0.96,
  ...overrides,
});

const sustained: SustainedResult = {
  durationSeconds: 60,
  endpointsInTheMix: 40,
  load: load({ p50: 25.08, requests: 15674, requestsPerSecond: 260.6 }),
  perEndpoint: [{ name: 'GET /public/v1/campaigns', requests: 394, unexpected: {} }],
  memory: {
    sampleEverySeconds: 2,
    samples: [{ atSeconds: 0, rss: 648.5, heapUsed: 70.8, heapTotal: 254.7, external: 16.3, javaRss: 702.6 }],
    heapUsedAfterGcMiB: { start: 70.7, end: 70.9 },
    rssMiB: { start: 648.5, peak: 648.5, end: 308 },
    heapUsedMiB: { start: 70.8, peak: 240.7, end: 93.7 },
    javaRssMiB: { start: 702.6, peak: 751.8, end: 751.8 },
  },
};

const bundles: BundleReport = {
  node: 'v24.21.0',
  nodeSource: 'npx node@24',
  importsPerBundle: 9,
  floor: bundle('floor', { sizeRatio: 1, importRatio: 1, medianImportRatio: 1 }),
  bundles: [bundle('list-campaigns')],
  firstRequests: {
    rounds: 5,
    floor: {
      function: 'floor',
      initMs: 34.3,
      firstRequestMs: 35.7,
      totalMs: 75.2,
      fastestTotalMs: 70,
      outcome: 'ok',
      ratio: 1,
      fastestRatio: 1,
    },
    functions: [
      {
        function: 'list-campaigns',
        initMs: 40,
        firstRequestMs: 50,
        totalMs: 90,
        fastestTotalMs: 84,
        outcome: '200',
        ratio: 1.2,
        fastestRatio: 1.2,
      },
    ],
    withoutEvent: [],
  },
};

const report = (overrides: Partial<BenchReport> = {}): BenchReport => ({
  generatedAt: '2026-11-28T20:00:00.000Z',
  benchSeconds: 600,
  machine: {
    cores: 2,
    cpuModel: 'AMD EPYC',
    memoryGiB: 23.5,
    node: 'v20.20.2',
    platform: 'linux',
    kernel: '6',
    loadAverageAtStart: 1.2,
  },
  settings: {
    concurrency: 8,
    endpointSeconds: 3,
    floorSeconds: 1,
    warmupRequests: 10,
    warmupSeconds: 2,
    rounds: 2,
    gatewayThrottling: false,
    demo: { seconds: 3.6, records: 5044 },
  },
  endpoints: [row()],
  notBenchmarked: [],
  rawOperations: {
    dryRun1000: {
      ms: 119,
      requests: 22,
      byOperation: { BatchGetItem: 11 },
      result: { summary: { total: 1000 } },
    },
    push1000: {
      ms: 3749,
      requests: 44,
      byOperation: { TransactWriteItems: 31 },
      result: { created: 1000, skipped: 0 },
    },
  },
  webhookDeliveries: {
    subscriptions: 10,
    events: 100,
    deliveries: 1000,
    eventsWrittenSeconds: 1.09,
    totalSeconds: 5.29,
    deliveriesPerSecond: 189.1,
  },
  sustained,
  memory: {
    stackProcessMaxRssMiB: 655.5,
    dynamoDbLocalPeakRssMiB: 751.8,
    sampledPeakRssMiB: 648.6,
    sampledPeakHeapUsedMiB: 431.2,
    sampledPeakJavaRssMiB: 751.8,
  },
  bundles,
  ...overrides,
});

/** The endpoints table's row of an endpoint. */
const tableRow = (markdown: string, endpoint: string) =>
  markdown.split('\n').find((line) => line.startsWith(`| ${endpoint}`))!;

describe("the bench report's failed measurements", () => {
  it('has no failure and exits 0 when every measurement stands, with an errors column of zeros', () => {
    const clean = report();
    expect(benchFailures(clean)).toEqual([]);
    expect(exitCodeOf(benchFailures(clean))).toBe(0);
    const markdown = renderMarkdown(clean);
    expect(markdown).not.toContain('**failed**');
    expect(markdown).not.toContain('Failed measurements');
    expect(markdown).toContain('errors: API / floor |');
    expect(tableRow(markdown, 'GET /public/v1/campaigns')).toMatch(
      /\| 19\.4 \/ 19\.2 \/ 11\.4 \| .* \| 0 \/ 0 \|$/,
    );
  });

  it('prints a floor whose calls failed as failed, without a floor or a ratio, and exits non-zero', () => {
    // What the committed report showed: every replayed call failed, and a ratio was printed anyway.
    const broken = row({
      floor: floor({
        operations: 17152,
        calls: 17168,
        errors: 17168,
        firstError: 'Query: Error: Region is missing',
      }),
    });
    const failing = report({ endpoints: [broken] });
    const failures = benchFailures(failing);
    expect(failures).toEqual([
      'GET /public/v1/campaigns: floor: 17168 of 17168 DynamoDB calls failed (Query: Error: Region is missing)',
    ]);
    expect(exitCodeOf(failures)).toBe(1);
    const markdown = renderMarkdown(failing);
    const line = tableRow(markdown, 'GET /public/v1/campaigns');
    const cells = line.split(' | ');
    // endpoint, requests, API latency, floor, ratio, DynamoDB requests, errors
    expect(cells[3]).toBe(
      '**failed**: 17168 of 17168 DynamoDB calls failed (Query: Error: Region is missing)',
    );
    expect(cells[4]).toBe('—');
    expect(line).toMatch(/\| 0 \/ \*\*17168\*\* \|$/);
    // The API's own figures still stand.
    expect(cells[2]).toBe('14.38 / 25.19 / 33');
    expect(markdown).toContain('## Failed measurements');
    expect(markdown).toContain(`- ${failures[0]}`);
  });

  it('prints a load with unexpected statuses or errors as failed, never its latency', () => {
    const failing = report({
      endpoints: [row({ api: load({ unexpected: 3, errors: 2, statuses: { '200': 2060, '500': 3 } }) })],
    });
    expect(benchFailures(failing)).toEqual([
      'GET /public/v1/campaigns: API: 2 connection errors or timeouts; 3 unexpected statuses ({"200":2060,"500":3})',
    ]);
    const cells = tableRow(renderMarkdown(failing), 'GET /public/v1/campaigns').split(' | ');
    expect(cells[1]).toBe('—');
    expect(cells[2]).toMatch(/^\*\*failed\*\*: 2 connection errors/);
    expect(cells[4]).toBe('—');
    expect(cells.at(-1)).toBe('**5** / 0 |');
  });

  it('reports an endpoint whose measurement threw, and a floor that was never replayed', () => {
    const failing = report({
      endpoints: [
        row({ api: null, floor: null, ratio: null, error: 'answered 404', endpoint: 'DELETE /x' }),
        row({ floor: null, ratio: null, endpoint: 'GET /y' }),
      ],
    });
    expect(benchFailures(failing)).toEqual(['DELETE /x: API: answered 404', 'GET /y: floor: not replayed']);
    expect(tableRow(renderMarkdown(failing), 'DELETE /x')).toContain('**failed**: answered 404');
  });

  it('says in words that an endpoint without a DynamoDB call has no floor', () => {
    const open = row({
      endpoint: 'GET /openapi.json',
      route: 'openapi',
      floor: null,
      ratio: null,
      dynamodb: { requests: 0, byOperation: {}, perRecording: [0, 0] },
    });
    const clean = report({ endpoints: [open] });
    expect(benchFailures(clean)).toEqual([]);
    const cells = tableRow(renderMarkdown(clean), 'GET /openapi.json').split(' | ');
    expect(cells[3]).toBe('no DynamoDB call: no floor');
    expect(cells[4]).toBe('no floor');
    expect(cells[5]).toBe('0');
  });

  it('fails every other section the same way', () => {
    const failing = report({
      rawOperations: {
        dryRun1000: { failed: 'POST /campaigns/1/raw/contacts/check-eligibility: 500' },
        push1000: { ms: 3749, requests: 44, byOperation: {}, result: { created: 990, skipped: 0 } },
      },
      webhookDeliveries: { ...report().webhookDeliveries, deliveries: 998 },
      enrollment: {
        rows: [
          {
            provider: 'lemlist',
            contacts: 200,
            enrolled: 190,
            failed: 10,
            seconds: 22,
            enrollmentsPerSecond: 8.6,
            providerRequests: 210,
            providerRequestsPer1000: 1050,
            statuses: { '200': 200, '429': 10 },
            rateLimit: { requests: 20, perMs: 2000 },
            pacingMs: 106,
            maxLeadsPerRequest: 1,
          },
        ],
      },
      hotItems: { failed: 'The hot items import is invalid' },
      sustained: { ...sustained, load: load({ unexpected: 1, statuses: { '200': 2064, '409': 1 } }) },
      memory: { ...report().memory, dynamoDbLocalPeakRssMiB: null },
      bundles: {
        ...bundles,
        bundles: [bundle('list-campaigns', { error: 'Could not resolve "x"' })],
        firstRequests: {
          ...(bundles.firstRequests as Exclude<
            BundleReport['firstRequests'],
            { failed: string } | undefined
          >),
          functions: [
            {
              function: 'delete-webhook',
              initMs: 40,
              firstRequestMs: 5,
              totalMs: 45,
              fastestTotalMs: 45,
              outcome: '404',
              ratio: 0.6,
              fastestRatio: 0.6,
            },
            {
              function: 'mail-consumer',
              initMs: 40,
              firstRequestMs: 5,
              totalMs: 45,
              fastestTotalMs: 45,
              outcome: 'threw Error',
              ratio: 0.6,
              fastestRatio: 0.6,
            },
          ],
        },
      },
    });
    const failures = benchFailures(failing);
    expect(failures).toEqual([
      'raw dry run: POST /campaigns/1/raw/contacts/check-eligibility: 500',
      'raw push: 990 of 1000 contacts handled',
      'webhook deliveries: 998 of 1000 deliveries received',
      'enrollment at lemlist: 10 of 200 enrollments failed; the emulator answered {"429":10}',
      'hot items: The hot items import is invalid',
      'sustained load: 1 unexpected statuses ({"200":2064,"409":1})',
      "memory: DynamoDB Local's process was not found, so its memory was not measured",
      'bundle list-campaigns: Could not resolve "x"',
      'init plus first request of delete-webhook: answered 404',
      'init plus first request of mail-consumer: threw Error',
    ]);
    expect(exitCodeOf(failures)).toBe(1);
    const markdown = renderMarkdown(failing);
    for (const shown of [
      '| dry run, 1,000 emails | **failed**: POST /campaigns/1/raw/contacts/check-eligibility: 500 | — | — |',
      '| push, 1,000 new contacts | **failed**: 990 of 1000 contacts handled | — | — |',
      '**failed**: 998 of 1000 deliveries received',
      '| lemlist | 200 | 190 (10) | **failed**: 10 of 200 enrollments failed; the emulator answered {"429":10} | — | — | — | — |',
      '**failed**: The hot items import is invalid',
      '| — | — | **failed**: 1 unexpected statuses ({"200":2064,"409":1}) | 0 | **1** |',
      "**failed**: DynamoDB Local's process was not found",
      '| list-campaigns | — | — | — | — | **failed**: Could not resolve "x" | — | — |',
      '| delete-webhook | — | — | **failed**: answered 404 | — | — | 404 |',
    ])
      expect(markdown).toContain(shown);
    // No figure of a failed measurement: the deliveries' and the lemlist row's numbers are gone.
    expect(markdown).not.toContain('deliveries/s');
    expect(markdown).not.toContain('**8.6**');
  });

  it('prints the enrollment section alone with a failed row', () => {
    expect(renderEnrollment({ failed: 'POST /provider-connections: 500' })).toContain(
      '**failed**: POST /provider-connections: 500',
    );
  });

  it('turns a section that throws into its failure, and lets one that succeeds through', async () => {
    await expect(
      attempt(async () => {
        throw new Error('Queues still busy after 120000 ms: 3\nmore');
      }),
    ).resolves.toEqual({ failed: 'Queues still busy after 120000 ms: 3' });
    await expect(attempt(async () => 42)).resolves.toBe(42);
  });
});

describe("an endpoint's API ÷ floor", () => {
  const turn = (p50: number) => ({ p50, p95: 2 * p50, p99: 3 * p50 });

  it('is the median of the turns paired with the floor replayed right after each', () => {
    // Turn 2's load met a burst of other work: its own ratio is 4, the others 1.5 and 1.8.
    const ratio = pairedRatio([turn(15), turn(40), turn(18)], [turn(10), turn(10), turn(10)]);
    expect(ratio).toEqual({ p50: 1.8, p95: 1.8, p99: 1.8 });
  });

  it('pairs each load with its own floor, not the loads with the floors as a whole', () => {
    // Merged, the loads' middle (20) over the floors' middle (10) would read 2; each turn reads 1.
    const ratio = pairedRatio([turn(5), turn(20), turn(40)], [turn(5), turn(20), turn(40)]);
    expect(ratio.p50).toBe(1);
  });

  it('has one pair when a write sends its fixed number of requests in one turn', () => {
    expect(pairedRatio([turn(30)], [turn(12)]).p50).toBe(2.5);
  });
});
