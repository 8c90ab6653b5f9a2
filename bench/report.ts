import { MAX_REGISTRATIONS_PER_HOUR } from '#definitions/oauth-limits.ts';
import type { BundleReport } from './bundles.ts';

/** Each function's init size and cold import at most this many times the floor's (the goal the report marks). */
/** Issue 36's bounds, each a ratio to the floor: bundle bytes at init, fastest cold import, init plus first request. */
export const BUNDLE_BOUNDS = { size: 1.0, coldImport: 1.15, firstRequest: 1.3 } as const;

import type { DeliveryThroughput } from './deliveries.ts';
import type { EnrollmentThroughput } from './enrollment.ts';
import {
  bundleFailure,
  deliveriesFailure,
  endpointFailures,
  enrollmentFailure,
  failedCell,
  firstRequestFailure,
  hotItemsFailure,
  isFailure,
  loadFailure,
  rawOperationFailure,
  type SectionFailure,
} from './failures.ts';
import type { FloorResult } from './floor.ts';
import { type HotItemsReport, renderHotItems } from './hot-items.ts';
import { type LoadResult, type Percentiles, round } from './load.ts';
import type { Machine } from './machine.ts';
import type { SustainedResult } from './sustained.ts';

/** The report's data; bench/report.json is this object, bench/report.md its rendering. */

export interface EndpointRow {
  endpoint: string;
  route: string;
  note?: string;
  /** Null when the endpoint's measurement threw (`error`). */
  api: LoadResult | null;
  floor: FloorResult | null;
  /** API latency ÷ floor latency, per percentile; null unless both measurements succeeded. */
  ratio: Percentiles | null;
  /** What the endpoint's measurement threw, if it did. */
  error?: string;
  /** From the first recording; `perRecording` counts every recording (they differ when a write's path does). */
  dynamodb: { requests: number; byOperation: Record<string, number>; perRecording: number[] };
  /** Seconds the queued work (mail, deliveries) took to drain after the run. */
  drainSeconds: number;
}

export interface RawOperation {
  ms: number;
  requests: number;
  byOperation: Record<string, number>;
  result: Record<string, unknown>;
}

export interface BenchReport {
  generatedAt: string;
  benchSeconds: number;
  machine: Machine;
  settings: {
    concurrency: number;
    endpointSeconds: number;
    floorSeconds: number;
    warmupRequests: number;
    /** Seconds of unmeasured load (and half as long of floor replay) before an endpoint's turns. */
    warmupSeconds: number;
    rounds: number;
    gatewayThrottling: false;
    demo: { seconds: number; records: number };
  };
  endpoints: EndpointRow[];
  notBenchmarked: string[];
  rawOperations: { dryRun1000: RawOperation | SectionFailure; push1000: RawOperation | SectionFailure };
  webhookDeliveries: DeliveryThroughput | SectionFailure;
  /** Absent from reports written before the section was added. */
  enrollment?: EnrollmentThroughput | SectionFailure;
  /** Absent from reports written before the section was added. */
  hotItems?: HotItemsReport | SectionFailure;
  sustained: SustainedResult | SectionFailure;
  memory: {
    stackProcessMaxRssMiB: number;
    dynamoDbLocalPeakRssMiB: number | null;
    sampledPeakRssMiB: number;
    sampledPeakHeapUsedMiB: number;
    sampledPeakJavaRssMiB: number | null;
  };
  bundles: BundleReport | SectionFailure;
}

/** Every failed measurement of the report, one line each (empty when every figure stands). */
export function benchFailures(report: BenchReport): string[] {
  const failures = endpointsFailures(report.endpoints);
  for (const [name, operation, contacts] of [
    ['raw dry run', report.rawOperations.dryRun1000, 1000],
    ['raw push', report.rawOperations.push1000, 1000],
  ] as const) {
    const failed = rawFailure(operation, contacts);
    if (failed) failures.push(`${name}: ${failed}`);
  }
  const hooks = report.webhookDeliveries;
  const hooksFailed = isFailure(hooks) ? hooks.failed : deliveriesFailure(hooks);
  if (hooksFailed) failures.push(`webhook deliveries: ${hooksFailed}`);
  if (report.enrollment) failures.push(...enrollmentFailures(report.enrollment));
  if (report.hotItems) failures.push(...hotItemsFailures(report.hotItems));
  failures.push(...sustainedFailures(report.sustained));
  if (report.memory.dynamoDbLocalPeakRssMiB === null)
    failures.push("memory: DynamoDB Local's process was not found, so its memory was not measured");
  failures.push(...bundlesFailures(report.bundles));
  return failures;
}

export function endpointsFailures(rows: readonly EndpointRow[]): string[] {
  return rows.flatMap((row) => {
    const failed = endpointFailures(row);
    return [
      ...(failed.api ? [`${row.endpoint}: API: ${failed.api}`] : []),
      ...(failed.floor ? [`${row.endpoint}: floor: ${failed.floor}`] : []),
    ];
  });
}

const rawFailure = (operation: RawOperation | SectionFailure, contacts: number) =>
  isFailure(operation) ? operation.failed : rawOperationFailure(operation.result, contacts);

export function sustainedFailures(sustained: SustainedResult | SectionFailure): string[] {
  const failed = isFailure(sustained) ? sustained.failed : loadFailure(sustained.load);
  return failed ? [`sustained load: ${failed}`] : [];
}

export function enrollmentFailures(enrollment: EnrollmentThroughput | SectionFailure): string[] {
  if (isFailure(enrollment)) return [`enrollment: ${enrollment.failed}`];
  return enrollment.rows.flatMap((row) => {
    const failed = enrollmentFailure(row);
    return failed ? [`enrollment at ${row.provider}: ${failed}`] : [];
  });
}

export function hotItemsFailures(hotItems: HotItemsReport | SectionFailure): string[] {
  const failed = isFailure(hotItems) ? hotItems.failed : hotItemsFailure(hotItems);
  return failed ? [`hot items: ${failed}`] : [];
}

export function bundlesFailures(bundles: BundleReport | SectionFailure): string[] {
  if (isFailure(bundles)) return [`bundles: ${bundles.failed}`];
  const failures: string[] = [];
  for (const bundle of [bundles.floor, ...bundles.bundles]) {
    const failed = bundleFailure(bundle);
    if (failed) failures.push(`bundle ${bundle.function}: ${failed}`);
  }
  const first = bundles.firstRequests;
  if (isFailure(first)) failures.push(`init plus first request: ${first.failed}`);
  else if (first) {
    for (const row of [first.floor, ...first.functions]) {
      const failed = firstRequestFailure(row);
      if (failed) failures.push(`init plus first request of ${row.function}: ${failed}`);
    }
  }
  return failures;
}

/** The list at the top of a report with failed measurements. */
export function renderFailures(failures: readonly string[]): string[] {
  if (failures.length === 0) return [];
  return [
    '## Failed measurements',
    '',
    `${failures.length} measurements of this run failed: each is shown as "failed" in its place below, without a figure, and \`npm run bench\` exited non-zero.`,
    '',
    ...failures.map((failure) => `- ${failure}`),
    '',
  ];
}

const triple = (value: Percentiles | null) => (value ? `${value.p50} / ${value.p95} / ${value.p99}` : '—');
const operations = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ') || '—';
const bold = (count: number) => (count === 0 ? '0' : `**${count}**`);
/** The errors column: the API's unexpected statuses and connection errors, and the floor's failed calls. */
const errorsOf = (row: EndpointRow) =>
  `${row.api ? bold(row.api.unexpected + row.api.errors) : '—'} / ${row.floor ? bold(row.floor.errors) : '—'}`;

/** An endpoint's row: a failed measurement shows why in place of its figures. */
function endpointLine(row: EndpointRow): string {
  const failed = endpointFailures(row);
  const { api, floor } = row;
  const apiCells =
    failed.api || !api
      ? ['—', failedCell(failed.api ?? 'not measured')]
      : [`${api.requests} (${api.requestsPerSecond})`, triple(api)];
  // A request that makes no DynamoDB call has nothing to replay: the row says so rather than a bare dash.
  const noFloor = !failed.floor && !floor && row.dynamodb.requests === 0 && !row.error;
  const floorCell = failed.floor
    ? failedCell(failed.floor)
    : floor
      ? `${triple(floor)} (${round(floor.operations / floor.seconds, 1)}/s)`
      : noFloor
        ? 'no DynamoDB call: no floor'
        : '—';
  const ratioCell = failed.api || failed.floor ? '—' : noFloor ? 'no floor' : triple(row.ratio);
  const dynamodb = `${row.dynamodb.requests}${row.dynamodb.requests > 0 ? `: ${operations(row.dynamodb.byOperation)}` : ''}`;
  return `| ${row.endpoint}${noteOf(row)} | ${apiCells.join(' | ')} | ${floorCell} | ${ratioCell} | ${dynamodb} | ${errorsOf(row)} |`;
}

function rawOperationLine(name: string, operation: RawOperation | SectionFailure, contacts: number): string {
  if (isFailure(operation)) return `| ${name} | ${failedCell(operation.failed)} | — | — |`;
  const failed = rawOperationFailure(operation.result, contacts);
  if (failed) return `| ${name} | ${failedCell(failed)} | — | — |`;
  return `| ${name} | ${operation.ms} | ${operation.requests} | ${operations(operation.byOperation)} |`;
}

function renderDeliveries(hooks: DeliveryThroughput | SectionFailure): string {
  if (isFailure(hooks)) return failedCell(hooks.failed);
  const failed = deliveriesFailure(hooks);
  if (failed) return failedCell(failed);
  return `${hooks.events} First Touch events (a first message recorded for each of ${hooks.events} contacts) to ${hooks.subscriptions} subscriptions on a local receiver: **${hooks.deliveries} deliveries in ${hooks.totalSeconds} s, ${hooks.deliveriesPerSecond} deliveries/s** end to end (outbox → stream relay → fan-out → webhooks queue → dispatcher → receiver), timed from the first event recorded to the last delivery received; recording the events took ${hooks.eventsWrittenSeconds} s. Locally one poller feeds the dispatcher batches of 10 (sent in parallel) one batch at a time; on AWS the event source mapping runs many batches concurrently.`;
}

/** The hot items section, or its failure under its heading. */
export function renderHotItemsSection(hotItems: HotItemsReport | SectionFailure): string {
  const failed = isFailure(hotItems) ? hotItems.failed : hotItemsFailure(hotItems);
  if (failed || isFailure(hotItems))
    return ['## Hot items: counter writes of one organization', '', failedCell(failed ?? ''), ''].join('\n');
  return renderHotItems(hotItems);
}

export function renderSustained(sustained: SustainedResult | SectionFailure, concurrency: number): string[] {
  if (isFailure(sustained)) return ['## Sustained load', '', failedCell(sustained.failed), ''];
  const failed = loadFailure(sustained.load);
  const unexpected = sustained.perEndpoint.filter((entry) => Object.keys(entry.unexpected).length > 0);
  const m = sustained.memory;
  return [
    `## Sustained load (${sustained.durationSeconds} s)`,
    '',
    `Mixed traffic over all ${sustained.endpointsInTheMix} endpoints above, each of the ${concurrency} connections cycling through them in turn (reads and writes; each pass creates a subscription and a provider connection and deletes them again, and links a sequence and unlinks it; client registrations, of which one address may make ${MAX_REGISTRATIONS_PER_HOUR} an hour, are measured in their own row only).`,
    '',
    '| requests | req/s | p50 / p95 / p99 ms | errors | unexpected statuses |',
    '|---:|---:|---:|---:|---:|',
    failed
      ? `| — | — | ${failedCell(failed)} | ${bold(sustained.load.errors)} | ${bold(sustained.load.unexpected)} |`
      : `| ${sustained.load.requests} | ${sustained.load.requestsPerSecond} | ${triple(sustained.load)} | ${sustained.load.errors} | ${sustained.load.unexpected} |`,
    '',
    unexpected.length === 0
      ? 'Every response had its expected status (200, or 302 for the consent form).'
      : `Unexpected statuses: ${unexpected.map((entry) => `${entry.name} ${JSON.stringify(entry.unexpected)}`).join('; ')}.`,
    '',
    `Memory of the stack process, sampled every ${m.sampleEverySeconds} s (MiB):`,
    '',
    '| | start | peak | end |',
    '|---|---:|---:|---:|',
    `| RSS | ${m.rssMiB.start} | ${m.rssMiB.peak} | ${m.rssMiB.end} |`,
    `| heap used | ${m.heapUsedMiB.start} | ${m.heapUsedMiB.peak} | ${m.heapUsedMiB.end} |`,
    `| heap used after a full GC | ${m.heapUsedAfterGcMiB.start} | | ${m.heapUsedAfterGcMiB.end} |`,
    `| DynamoDB Local (Java) RSS | ${m.javaRssMiB.start ?? '—'} | ${m.javaRssMiB.peak ?? '—'} | ${m.javaRssMiB.end ?? '—'} |`,
    '',
    `Live heap (after a full GC) ${m.heapUsedAfterGcMiB.start} MiB before and ${m.heapUsedAfterGcMiB.end} MiB after ${sustained.load.requests.toLocaleString('en-US')} requests (${round(m.heapUsedAfterGcMiB.end - m.heapUsedAfterGcMiB.start, 1)} MiB): ${Math.abs(m.heapUsedAfterGcMiB.end - m.heapUsedAfterGcMiB.start) < 10 ? 'stable, nothing accumulates per request' : '**it grew**'}. RSS over the run: ${m.samples.map((sample) => Math.round(sample.rss)).join(', ')}. The SMTP sink's in-memory copy of received mail (a test fixture, not part of the service) is emptied at each sample. DynamoDB Local holds the table in memory, so its RSS grows with the data the writes add.`,
    '',
  ];
}

const noteOf = (row: EndpointRow) => {
  const notes = [
    row.note,
    row.drainSeconds > 0 ? `queued work drained within ${row.drainSeconds} s` : undefined,
  ];
  const text = notes.filter(Boolean).join('; ');
  return text ? ` <br><sub>${text}</sub>` : '';
};

export function renderMarkdown(report: BenchReport): string {
  const { machine, settings, memory } = report;
  const { dryRun1000, push1000 } = report.rawOperations;
  const lines = [
    '# Benchmark report',
    '',
    `Generated ${report.generatedAt} by \`npm run bench\` (${report.benchSeconds} s) on ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node} (${machine.platform} ${machine.kernel}); 1-minute load average ${machine.loadAverageAtStart} at the start. The machine is shared with other work, so the figures are noisy: compare orders of magnitude and ratios, not single milliseconds.`,
    '',
    ...renderFailures(benchFailures(report)),
    '## How it was measured',
    '',
    '- **The local stack in this process**: the local API Gateway, every handler, the stream relay and the queue consumers in-process; DynamoDB Local (Java, in memory) and fauxqs; an SMTP sink for replies; a webhook receiver on 127.0.0.1. All traffic stays on 127.0.0.1.',
    `- **Without the gateway throttle**: the stack is started with \`throttling: false\`, so the per-organization and stage rate limits (token buckets) do not apply; the figures are the service's own.`,
    `- **Data**: the full demo organization (${settings.demo.records.toLocaleString('en-US')} records imported in ${settings.demo.seconds} s), plus organizations the bench creates for subscriptions, OAuth and deliveries.`,
    `- **Load**: autocannon 9.0.0 with **${settings.concurrency} connections** (pipelining 1), ${settings.endpointSeconds} s per endpoint in ${settings.rounds} turns alternating with the floor, after ${settings.warmupRequests} warm-up requests and ${settings.warmupSeconds} s of unmeasured load (then ${settings.warmupSeconds / 2} s of unmeasured floor replay), so that both are measured with their code optimized by V8; writes bounded by a limit (25 subscriptions per organization) send a fixed number of requests in one turn instead. Latency is each response's time in ms (p50 / p95 / p99). The load generator shares this process and its event loop with the stack.`,
    `- **Floor**: the DynamoDB calls of ${settings.concurrency} API calls of the endpoint (one per connection, so replayed writes touch different items, as the load's writes do), recorded by a middleware on the service's own client and replayed directly from this process through one document client built as the service builds its own (the same commands with the same inputs, so marshalling counts on the floor's side), ${settings.concurrency} at a time, for ${settings.floorSeconds} s in the same turns; calls a handler made in parallel are replayed in parallel. **API ÷ floor** (per percentile) is the median over the turns of each turn's load ÷ the floor replayed right after it (the latency columns merge all turns); it is what HTTP, the gateway, the cached authorizer, validation, the handler and serialization add to the DynamoDB work. Replayed writes are refused by their conditions (the items exist now) but still make the round trip. A ratio near 1 says the endpoint costs what its DynamoDB calls cost. DynamoDB Local (Java, on the same two cores) is CPU-bound: where the floor's operations/s is about the API's requests/s, both ran at DynamoDB Local's ceiling, and since the floor's workers keep it busier than the API (which spends part of each request elsewhere), the ratio can dip below 1. The shared machine moves single figures by tens of percent.`,
    "- **DynamoDB requests per call**: API calls through the service's client during one request (SDK retries count once); the authorizer's read is cached by the gateway, as on AWS.",
    '',
    '## Endpoints',
    '',
    'The errors column counts, for the API, responses with an unexpected status plus connection errors and timeouts, and for the floor, replayed DynamoDB calls that failed (a write refused by its condition is not one); a row with any is a failed measurement and shows why instead of its figures.',
    '',
    ...renderEndpoints(report.endpoints),
    '',
    report.notBenchmarked.length > 0
      ? `Routes of the manifest not benchmarked: ${report.notBenchmarked.join(', ')}.`
      : 'Every route of the manifest is benchmarked.',
    '',
    '## Raw operations',
    '',
    '| operation | wall ms | DynamoDB requests | by operation |',
    '|---|---:|---:|---|',
    rawOperationLine('dry run, 1,000 emails', dryRun1000, 1000),
    rawOperationLine('push, 1,000 new contacts', push1000, 1000),
    '',
    '## Webhook deliveries',
    '',
    renderDeliveries(report.webhookDeliveries),
    '',
    ...(report.enrollment ? renderEnrollment(report.enrollment) : []),
    ...(report.hotItems ? [renderHotItemsSection(report.hotItems)] : []),
    ...renderSustained(report.sustained, settings.concurrency),
    '## Memory of the local stack',
    '',
    `Peak RSS over the whole bench: **${memory.stackProcessMaxRssMiB} MiB** for the stack process (getrusage maxRSS; it also hosts the load generator), ${memory.dynamoDbLocalPeakRssMiB === null ? failedCell("DynamoDB Local's process was not found") : `**${memory.dynamoDbLocalPeakRssMiB} MiB**`} for the DynamoDB Local Java child (VmHWM). Sampled every second: RSS peak ${memory.sampledPeakRssMiB} MiB, heap used peak ${memory.sampledPeakHeapUsedMiB} MiB, Java RSS peak ${memory.sampledPeakJavaRssMiB ?? '—'} MiB.`,
    '',
    ...renderBundles(report.bundles),
  ];
  return lines.join('\n');
}

/** The endpoints' table (within the full report, and alone for `npm run bench -- --only endpoints`). */
export function renderEndpoints(rows: readonly EndpointRow[]): string[] {
  return [
    '| endpoint | requests (req/s) | API p50 / p95 / p99 ms | floor p50 / p95 / p99 ms (operations/s) | API ÷ floor | DynamoDB requests per call | errors: API / floor |',
    '|---|---:|---:|---:|---:|---|---:|',
    ...rows.map(endpointLine),
  ];
}

/** The bundles section: sizes and cold imports beside the floor, and init plus first request. */
export function renderBundles(bundles: BundleReport | SectionFailure): string[] {
  if (isFailure(bundles)) return ['## Bundles and cold start', '', failedCell(bundles.failed), ''];
  const { floor } = bundles;
  // Without the floor's figures no ratio is one.
  const floorFailed = bundleFailure(floor);
  const within = (ratio: number, bound: number) =>
    floorFailed ? '—' : ratio <= bound ? `${ratio}` : `**${ratio}**`;
  const first = bundles.firstRequests;
  return [
    '## Bundles and cold start',
    '',
    `Each function built as the stack builds it (\`bundleBuildOptions\` of infra/constructs/service-function.ts: minified ESM, target node24, the AWS SDK bundled, split so that what a function imports with \`import()\` is a chunk of its own; source maps not counted), beside the **floor**: a bare DynamoDB function (bench/floor-function: the client and document client as the SDK ships them, one GetCommand) built in one file with esbuild's plain \`--bundle --minify --platform=node --format=esm --main-fields=module,main\`. *Init* is what a cold start reads: the entry file and the chunks it imports statically; *shipped* is every chunk. Each is imported in a fresh process ${bundles.importsPerBundle} times on Node ${bundles.node} (${bundles.nodeSource}), in rounds that import the floor and every function once each, so that load on the machine falls on all alike; the median import time is shown with the fastest and slowest (module evaluation included, no handler call). Ratios are to the floor; in bold where over the bound (size ${BUNDLE_BOUNDS.size}, cold import ${BUNDLE_BOUNDS.coldImport}, init plus first request ${BUNDLE_BOUNDS.firstRequest}). The import ratio sets the fastest import beside the floor's fastest: load from whatever else runs on the machine only ever adds time, and adds it unevenly, so the medians of one run scatter by ±15 % between runs where the fastest move by a few %; the ratio of the medians is shown beside it.`,
    '',
    floorFailed
      ? `Floor: ${failedCell(floorFailed)}.`
      : `Floor: **${floor.initKiB} KiB** at init (${floor.gzippedInitKiB} KiB gzipped, ${floor.shippedKiB} KiB shipped: the SDK imports its credential providers other than the environment's on demand), cold import **${floor.coldImportMs} ms** (${floor.coldImportMinMs}–${floor.coldImportMaxMs}).`,
    '',
    '| function | init KiB | gzipped | shipped KiB | size ÷ floor | cold import ms (min–max) | import ÷ floor (fastest) | (medians) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...bundles.bundles.map((bundle) =>
      bundle.error
        ? `| ${bundle.function} | — | — | — | — | ${failedCell(bundle.error)} | — | — |`
        : `| ${bundle.function} | ${bundle.initKiB} | ${bundle.gzippedInitKiB} | ${bundle.shippedKiB} | ${within(bundle.sizeRatio, BUNDLE_BOUNDS.size)} | ${bundle.coldImportMs} (${bundle.coldImportMinMs}–${bundle.coldImportMaxMs}) | ${within(bundle.importRatio, BUNDLE_BOUNDS.coldImport)} | ${floorFailed ? '—' : bundle.medianImportRatio} |`,
    ),
    '',
    ...(isFailure(first)
      ? ['### Init plus first request', '', failedCell(first.failed), '']
      : first
        ? [
            '### Init plus first request',
            '',
            `A fresh Node ${bundles.node} process imports the bundle and invokes its handler once with the first event the local stack gave that function (its HTTP event, authorizer request, queue batch or stream batch), against that local stack (DynamoDB Local, the local SQS, the SMTP sink). The section runs first, in a process and on a stack of its own, where the demo is seeded and every endpoint sent one request: DynamoDB Local slows down as a run's stream records pile up, which DynamoDB does not, and that slowdown is paid once by the floor's one GetItem but by every request of a function that makes several. The floor's first request is its GetItem. In each of ${first.rounds} rounds every function runs once, right after a run of the floor, so that load from other work, which comes and goes, falls on both runs of a pair alike; the ratio is the median of a function's ${first.rounds} paired ratios (its total ÷ the floor's total just before it), and the fastest total ÷ the floor's fastest is shown beside it. Init and first request are medians; the total is shown as the median with the fastest. On Lambda, init also pays for the runtime and the code download, and requests cross the network; the figures compare the code, not the platform.`,
            '',
            firstRequestFailure(first.floor)
              ? `Floor: ${failedCell(firstRequestFailure(first.floor)!)}.`
              : `Floor: init ${first.floor.initMs} ms + first request ${first.floor.firstRequestMs} ms = **${first.floor.totalMs} ms** (fastest ${first.floor.fastestTotalMs} ms), over its runs, one before each function's.`,
            '',
            '| function | init ms | first request ms | total ms (fastest) | ÷ floor (paired, median) | (fastest ÷ fastest) | first answer |',
            '|---|---:|---:|---:|---:|---:|---|',
            ...first.functions.map((row) => {
              const failed = firstRequestFailure(row);
              const floorFailed = firstRequestFailure(first.floor) !== undefined;
              return failed
                ? `| ${row.function} | — | — | ${failedCell(failed)} | — | — | ${row.outcome} |`
                : `| ${row.function} | ${row.initMs} | ${row.firstRequestMs} | ${row.totalMs} (${row.fastestTotalMs}) | ${floorFailed ? '—' : row.ratio <= BUNDLE_BOUNDS.firstRequest ? row.ratio : `**${row.ratio}**`} | ${floorFailed ? '—' : row.fastestRatio} | ${row.outcome} |`;
            }),
            '',
            ...(first.withoutEvent.length > 0
              ? [`Not invoked during the run, so not replayed: ${first.withoutEvent.join(', ')}.`, '']
              : []),
          ]
        : []),
  ];
}

/** The report's section (within the full report, and alone for `npm run bench -- --only enrollment`). */
export function renderEnrollment(result: EnrollmentThroughput | SectionFailure): string[] {
  if (isFailure(result)) return ['## Enrollment at the providers', '', failedCell(result.failed), ''];
  return [
    '## Enrollment at the providers',
    '',
    "Per provider, a raw push of N contacts with `triggerIntake: true` to a campaign whose sequence is linked to a campaign of the provider's local emulator (manual playback), timed from the push to the last assignment whose enrollment is `enrolled` (polled every 200 ms through `GET /public/v1/campaigns/{id}/contacts`). Provider requests are the API requests the emulator logged for the connection's key. The outbound client paces each key below the documented limit (each provider's shared/providers/<provider>/facts.ts), at ceil(perMs ÷ (requests − 1)) ms a request, and that pacing bounds enrollments/s: Smartlead reads each added lead's id back, one request per lead.",
    '',
    '| provider | N | enrolled (failed) | seconds | enrollments/s | provider requests | per 1,000 enrollments | emulator statuses | documented limit | pacing | leads per add request |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|',
    ...result.rows.map((row) => {
      const failed = enrollmentFailure(row);
      const figures = failed
        ? `${failedCell(failed)} | — | — | — | —`
        : `${row.seconds} | **${row.enrollmentsPerSecond}** | ${row.providerRequests} | **${row.providerRequestsPer1000}**`;
      return `| ${row.provider} | ${row.contacts} | ${row.enrolled} (${row.failed}) | ${figures} | ${JSON.stringify(row.statuses)} | ${row.rateLimit.requests} per ${row.rateLimit.perMs / 1000} s | ${row.pacingMs} ms | ${row.maxLeadsPerRequest} |`;
    }),
    '',
  ];
}
