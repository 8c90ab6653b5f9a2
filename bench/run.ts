// First, before any module that makes a logger (quiet-environment.ts says why).
import './quiet-environment.ts';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../infra/local/stack.ts';
import { PROJECT_ROOT } from '../infra/paths.ts';
import {
  type BundleReport,
  buildBundles,
  measureBundles,
  measureFirstRequests,
  removeBundles,
} from './bundles.ts';
import type { BenchFixtures, EndpointSpec } from './endpoints.ts';
import { attempt, endpointFailures, exitCodeOf, reasonOf, type SectionFailure } from './failures.ts';
import type { FloorRun } from './floor.ts';
import { CONCURRENCY, type LoadRun, mergeLoads, pairedRatio, round, runLoad } from './load.ts';
import { javaChildren, machine, peakMemory, startSampler } from './machine.ts';
import {
  type BenchReport,
  benchFailures,
  bundlesFailures,
  type EndpointRow,
  endpointsFailures,
  enrollmentFailures,
  hotItemsFailures,
  type RawOperation,
  renderBundles,
  renderEndpoints,
  renderEnrollment,
  renderHotItemsSection,
  renderMarkdown,
  renderSustained,
  sustainedFailures,
} from './report.ts';

/**
 * `npm run bench`: one run on the local stack, in this process, writing
 * bench/report.md and bench/report.json. It reports figures (latency against
 * the DynamoDB floor, requests per call, raw-operation costs, webhook
 * throughput, a sustained mixed run, memory, bundles); nothing here is a
 * test, and nothing asserts times. Every request goes to 127.0.0.1.
 * BENCH_ENDPOINT_SECONDS, BENCH_FLOOR_SECONDS and BENCH_SUSTAINED_SECONDS
 * shorten a trial run; the committed report comes from the defaults.
 * `npm run bench -- --only enrollment` runs only the enrollment section
 * (bench/enrollment.ts; BENCH_ENROLLMENTS sets its contacts) and prints it,
 * leaving the report files as they are; `--only hot-items` likewise the hot
 * items section (bench/hot-items.ts; BENCH_HOT_EVENTS and BENCH_HOT_WRITERS);
 * `--only bundles` the bundles section: sizes, cold imports, and init plus
 * first request, after one request of each endpoint to record their events
 * (the full run runs it so, first, in a process of its own);
 * `--only endpoints` the endpoints' rows (BENCH_ENDPOINTS: the routes to
 * measure, comma-separated; all by default; a delete measured without its
 * create finds what the fixtures made).
 * A measurement that failed (bench/failures.ts) is reported as failed, never
 * as a figure, and the bench exits non-zero after writing what it measured.
 */

/** Seconds of load per endpoint, and of floor replay. */
const ENDPOINT_SECONDS = Number(process.env.BENCH_ENDPOINT_SECONDS ?? 6);
const FLOOR_SECONDS = Number(process.env.BENCH_FLOOR_SECONDS ?? 2);
/** The load and the floor of an endpoint alternate this many times (an odd number: the ratio is their median). */
const ROUNDS = 3;
const SUSTAINED_SECONDS = Number(process.env.BENCH_SUSTAINED_SECONDS ?? 60);
const WARMUP_REQUESTS = 10;
/**
 * Seconds of unmeasured load, then of unmeasured floor replay, before an endpoint's turns: ten
 * requests leave most of a handler's path to V8's interpreter, while the floor's (the SDK, which
 * the stack runs all the time) is optimized already, and in 1.5-second turns that gap decided the
 * cheap reads' ratio (docs/architecture.md, Benchmark).
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

const benchStarted = performance.now();
const log = (message: string) =>
  process.stderr.write(`[bench ${Math.round((performance.now() - benchStarted) / 1000)} s] ${message}\n`);
const runId = randomUUID().slice(0, 8);
const machineInfo = machine();

/** `--only <section>`: one section alone. */
const SECTIONS = ['enrollment', 'hot-items', 'bundles', 'sustained', 'endpoints'];
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
if (only !== undefined && !SECTIONS.includes(only))
  throw new Error(`--only ${only}: the sections are: ${SECTIONS.join(', ')}`);

/** The enrollment section (bench/enrollment.ts), on the running stack. */
async function enrollmentOnStack(stack: LocalStack) {
  const { measureEnrollment } = await import('./enrollment.ts');
  return measureEnrollment(stack.apiUrl, stack.providerApiUrls, { runId, log });
}

/** The hot items section (bench/hot-items.ts), on the running stack's table. */
async function hotItemsOnStack() {
  const { measureHotItems } = await import('./hot-items.ts');
  return measureHotItems({ log });
}

/** Each endpoint's row, in the specs' order: its load against its floor, in turns. */
async function measureEndpoints(specs: EndpointSpec[]): Promise<EndpointRow[]> {
  const { send } = await import('./endpoints.ts');
  const { byOperation, recordCalls, replayFloor, mergeFloors } = await import('./floor.ts');
  const { waitForQuiet } = await import('./quiet.ts');
  // The provider events queue too: the inbound provider webhooks queue their payloads.
  const quiet = () =>
    waitForQuiet([stack.queueUrls.mail, stack.queueUrls.webhooks, stack.queueUrls.providerEvents]);

  /**
   * What autocannon sends for `spec`: its fixed requests, built once and sent in turn by each
   * connection, or each request made as it is sent.
   */
  const loadRequests = (spec: EndpointSpec): AutocannonRequest[] => {
    const onResponse = (status: number, body: string) => spec.onResponse?.(status, body);
    return spec.next.fixed
      ? spec.next.fixed.map((request) => ({ ...request, headers: { ...request.headers }, onResponse }))
      : [{ setupRequest: (request) => ({ ...request, ...spec.next() }), onResponse }];
  };

  /** One endpoint's row: its load against its floor, in turns. */
  async function measureEndpoint(spec: EndpointSpec): Promise<EndpointRow> {
    await spec.prepare?.();
    const warmups = spec.amount ? 2 : WARMUP_REQUESTS;
    for (let index = 0; index < warmups; index++) await send(stack.apiUrl, spec);
    await quiet();
    // One recording per connection: the floor replays them side by side, as the load sends different requests.
    // Work an endpoint queues is let drain between recordings, so no consumer's calls get into the next one.
    const recordings: Awaited<ReturnType<typeof recordCalls>>['calls'][] = [];
    for (let index = 0; index < CONCURRENCY; index++) {
      recordings.push((await recordCalls(() => send(stack.apiUrl, spec))).calls);
      if (spec.queuesWork) await quiet();
    }
    const [calls = []] = recordings;
    // Writes a limit bounds send their fixed number of requests and no more.
    if (!spec.amount && WARMUP_SECONDS > 0) {
      const warmup = await runLoad({
        baseUrl: stack.apiUrl,
        requests: loadRequests(spec),
        duration: WARMUP_SECONDS,
        expectedStatus: spec.expectedStatus,
      });
      // The warm-up's figures are not shown, so a failure there fails the row instead of passing unseen.
      const { errors, unexpected, statuses } = warmup.result;
      if (errors > 0 || unexpected > 0)
        throw new Error(
          `warm-up: ${errors} errors, ${unexpected} unexpected statuses (${JSON.stringify(statuses)})`,
        );
      if (spec.queuesWork) await quiet();
      if (calls.length > 0) {
        const floorWarmup = await replayFloor(recordings, (WARMUP_SECONDS * 1000) / 2);
        if (floorWarmup.result.errors > 0)
          throw new Error(
            `floor warm-up: ${floorWarmup.result.errors} errors (${floorWarmup.result.firstError})`,
          );
        if (spec.queuesWork) await quiet();
      }
    }
    // The load and the floor in turns, so a change in the shared machine's background load weighs on both alike.
    const rounds = spec.amount ? 1 : ROUNDS;
    const apiRuns: LoadRun[] = [];
    const floorRuns: FloorRun[] = [];
    let drainSeconds = 0;
    for (let turn = 0; turn < rounds; turn++) {
      apiRuns.push(
        await runLoad({
          baseUrl: stack.apiUrl,
          requests: loadRequests(spec),
          ...(spec.amount ? { amount: spec.amount() } : { duration: ENDPOINT_SECONDS / rounds }),
          expectedStatus: spec.expectedStatus,
        }),
      );
      if (spec.queuesWork) drainSeconds = round(drainSeconds + (await quiet()), 1);
      if (calls.length > 0) {
        floorRuns.push(await replayFloor(recordings, (FLOOR_SECONDS * 1000) / rounds));
        // Replayed writes reach the table now, and an outbox item among them queues work through the
        // stream relay: it drains before the next turn, as the load's does.
        if (spec.queuesWork) await quiet();
      }
    }
    const api = mergeLoads(apiRuns);
    const floor = floorRuns.length > 0 ? mergeFloors(floorRuns) : null;
    const row: EndpointRow = {
      endpoint: spec.name,
      route: spec.route,
      note: spec.note,
      api,
      floor,
      ratio: null,
      dynamodb: {
        requests: calls.length,
        byOperation: byOperation(calls),
        perRecording: recordings.map((recording) => recording.length),
      },
      drainSeconds,
    };
    // A ratio only of two figures that both stand.
    const failed = endpointFailures(row);
    return floor && !failed.api && !failed.floor
      ? {
          ...row,
          ratio: pairedRatio(
            apiRuns.map((run) => run.result),
            floorRuns.map((run) => run.result),
          ),
        }
      : row;
  }

  const rows: EndpointRow[] = [];
  for (const spec of specs) {
    log(spec.name);
    try {
      rows.push(await measureEndpoint(spec));
    } catch (error) {
      log(`${spec.name} failed: ${reasonOf(error)}`);
      rows.push({
        endpoint: spec.name,
        route: spec.route,
        note: spec.note,
        api: null,
        floor: null,
        ratio: null,
        error: reasonOf(error),
        dynamodb: { requests: 0, byOperation: {}, perRecording: [] },
        drainSeconds: 0,
      });
    }
  }
  return rows;
}

/** Everything measured on the running stack. */
async function measureOnStack(stack: LocalStack) {
  const javaPid = javaChildren()[0];
  const wholeRun = startSampler(1000, javaPid);

  // Modules that create SDK clients load once the stack has pointed the SDK at the local emulators.
  const { endpointSpecs } = await import('./endpoints.ts');
  const { byOperation, closeFloor, recordCalls } = await import('./floor.ts');
  const { waitForQuiet } = await import('./quiet.ts');
  const { measureDeliveries } = await import('./deliveries.ts');
  const { sustainedLoad } = await import('./sustained.ts');
  const { routes } = await import('#definitions/routes.ts');

  log('seeding the demo organization');
  const { demo, seedSeconds, receiver, fixtures } = await seededFixtures(stack);
  const specs = endpointSpecs(fixtures, runId);
  // The provider events queue too: the inbound provider webhooks queue their payloads.
  const queues = [stack.queueUrls.mail, stack.queueUrls.webhooks, stack.queueUrls.providerEvents];
  const quiet = () => waitForQuiet(queues);

  const endpoints = await measureEndpoints(specs);
  const benchmarked = new Set(specs.map((spec) => spec.route));
  const notBenchmarked = routes.filter((route) => !benchmarked.has(route.name)).map((route) => route.name);

  log('raw operations');
  async function rawOperation(path: string, body: unknown): Promise<RawOperation> {
    const started = performance.now();
    const { result, calls } = await recordCalls(async () => {
      const response = await fetch(`${stack.apiUrl}/public/v1${path}`, {
        method: 'POST',
        headers: { 'x-api-key': demo.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 200)
        throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    });
    const summary =
      'summary' in result
        ? { summary: result.summary }
        : { created: result.created, skipped: result.skipped };
    return {
      ms: round(performance.now() - started),
      requests: calls.length,
      byOperation: byOperation(calls),
      result: summary,
    };
  }
  const campaign = `/campaigns/${fixtures.demo.campaignId}/raw/contacts`;
  const bulkEmails = Array.from(
    { length: 1000 },
    (_, index) => `bulk${index}.${runId}@bulk${index % 40}.example`,
  );
  const dryRun1000 = await attempt(() =>
    rawOperation(`${campaign}/check-eligibility`, { emails: bulkEmails }),
  );
  const push1000 = await attempt(() =>
    rawOperation(campaign, {
      sequenceId: fixtures.demo.emailSequenceId,
      contacts: bulkEmails.map((email, index) => ({
        email,
        firstName: `B${index}`,
        variables: { opener: `Hi ${index}` },
      })),
    }),
  );
  await quiet();

  log('webhook deliveries');
  const webhookDeliveries = await attempt(() =>
    measureDeliveries(stack.apiUrl, receiver, { subscriptions: 10, events: 100, runId }),
  );
  await quiet();

  log('enrollment at the providers');
  const enrollment = await attempt(() => enrollmentOnStack(stack));
  await quiet();

  log('hot items');
  const hotItems = await attempt(() => hotItemsOnStack());
  await quiet();

  log(`sustained load, ${SUSTAINED_SECONDS} s`);
  const sustained = await attempt(() =>
    sustainedLoad(fixtures, specs, {
      durationSeconds: SUSTAINED_SECONDS,
      sampleEverySeconds: 2,
      javaPid,
      onSample: () => {
        stack.smtp.messages.length = 0;
      },
    }),
  );
  closeFloor();
  const samples = wholeRun.stop();
  const peaks = peakMemory(javaPid);
  await receiver.stop();
  const javaSamples = samples.flatMap((sample) => (sample.javaRss === null ? [] : [sample.javaRss]));
  return {
    settings: {
      concurrency: CONCURRENCY,
      endpointSeconds: ENDPOINT_SECONDS,
      floorSeconds: FLOOR_SECONDS,
      warmupRequests: WARMUP_REQUESTS,
      warmupSeconds: WARMUP_SECONDS,
      rounds: ROUNDS,
      gatewayThrottling: false as const,
      demo: { seconds: seedSeconds, records: demo.records },
    },
    endpoints,
    notBenchmarked,
    rawOperations: { dryRun1000, push1000 },
    webhookDeliveries,
    enrollment,
    hotItems,
    sustained,
    memory: {
      ...peaks,
      sampledPeakRssMiB: Math.max(...samples.map((sample) => sample.rss)),
      sampledPeakHeapUsedMiB: Math.max(...samples.map((sample) => sample.heapUsed)),
      sampledPeakJavaRssMiB: javaSamples.length > 0 ? Math.max(...javaSamples) : null,
    },
  };
}

// The stack without the gateway's rate limits: the bench measures the service itself. The provider
// emulators play nothing on their own: the enrollment section only enrolls.
// Each function's first event is kept, to replay into its built bundle (init plus first request).
const firstEvents = new Map<string, unknown>();
const stackOptions: LocalStackOptions = {
  port: 0,
  throttling: false,
  providerEmulators: { playback: 'manual' },
  onInvoke: (entry, event) => {
    if (!firstEvents.has(entry)) firstEvents.set(entry, structuredClone(event));
  },
};
/**
 * The bundles are built and their cold imports measured before the stack
 * starts: DynamoDB Local and the stack's pollers would be load beside them,
 * and every import of a run would wait on it differently.
 */
const built = only === 'bundles' ? await bundlesBeforeStack() : undefined;

/**
 * The full run's bundles section is `--only bundles` in a process of its own, first, before this
 * process starts its stack: its init plus first request then meets a DynamoDB Local of its own, fresh
 * but for the demo and one request per endpoint. DynamoDB Local (not DynamoDB) slows down as the
 * stream records of a run pile up, deleted tables' included (docs/architecture.md, Benchmark): at the
 * end of a full run, after 20,000 provider events and the sustained run, a function that makes four
 * requests paid four times what the floor's one GetItem paid for that. The child writes its section
 * to a file (BENCH_BUNDLES_REPORT); one that exits without it is the section's failure.
 */
async function bundlesInOwnProcess(): Promise<BundleReport | SectionFailure> {
  const output = join(tmpdir(), `bench-bundles-${runId}.json`);
  const script = process.argv[1];
  if (!script) return { failed: 'no script path to run the bundles section with' };
  log('bundles section, in a process and on a stack of its own');
  const child = spawn(process.execPath, [...process.execArgv, script, '--only', 'bundles'], {
    env: { ...process.env, BENCH_BUNDLES_REPORT: output },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  try {
    return JSON.parse(readFileSync(output, 'utf8')) as BundleReport | SectionFailure;
  } catch {
    return { failed: `the bundles section's process exited ${code} without its figures` };
  } finally {
    rmSync(output, { force: true });
  }
}
const bundlesSection = only === undefined ? await bundlesInOwnProcess() : undefined;

async function bundlesBeforeStack() {
  log('building the bundles');
  const bundles = await buildBundles();
  try {
    log('cold imports');
    return { bundles, imports: await measureBundles(bundles) };
  } catch (error) {
    removeBundles(bundles);
    throw error;
  }
}

const stack = await startLocalStack(stackOptions);

/** Sizes and cold imports of the built bundles, and init plus first request of each against the stack (the bundles are removed with the stack). */
async function bundlesOnStack(fixtures: BenchFixtures) {
  if (!built) throw new Error('The bundles section runs with the bundles built');
  log('init plus first request of each function');
  const { replayPreparers } = await import('./first-events.ts');
  const preparers = replayPreparers(stack.apiUrl, fixtures.providers.account, [
    ...fixtures.links.read,
    ...fixtures.links.unlinked,
    ...fixtures.links.sustained,
  ]);
  const firstRequests = await attempt(() =>
    measureFirstRequests(built.bundles, stack, firstEvents, preparers),
  );
  return { ...built.imports, firstRequests };
}

/** Lists the failed measurements on stderr; the exit code they give. */
function reportFailures(failures: string[]): number {
  for (const failure of failures) process.stderr.write(`[bench] failed: ${failure}\n`);
  if (failures.length > 0) process.stderr.write(`[bench] ${failures.length} measurements failed\n`);
  return exitCodeOf(failures);
}

/** The demo seeded, the webhook receiver started, and the fixtures the bench's requests point at. */
async function seededFixtures(stack: LocalStack) {
  const { seedDemo } = await import('#admin/seed.ts');
  const { prepareFixtures } = await import('./endpoints.ts');
  const { startReceiver } = await import('./receiver.ts');
  const seedStarted = performance.now();
  const demo = await seedDemo();
  const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
  const receiver = await startReceiver();
  const fixtures = await prepareFixtures(stack.apiUrl, receiver.url, demo, stack.providerApiUrls);
  return { demo, seedSeconds, receiver, fixtures };
}

let exitCode = 0;
if (only === 'bundles') {
  try {
    const { endpointSpecs, send } = await import('./endpoints.ts');
    const { waitForQuiet } = await import('./quiet.ts');
    const { receiver, fixtures } = await seededFixtures(stack);
    for (const spec of endpointSpecs(fixtures, runId)) {
      await spec.prepare?.();
      await send(stack.apiUrl, spec);
    }
    await waitForQuiet([stack.queueUrls.mail, stack.queueUrls.webhooks, stack.queueUrls.providerEvents]);
    const bundles = await bundlesOnStack(fixtures);
    const reportTo = process.env.BENCH_BUNDLES_REPORT;
    if (reportTo) writeFileSync(reportTo, JSON.stringify(bundles));
    console.log(renderBundles(bundles).join('\n'));
    await receiver.stop();
    exitCode = reportFailures(bundlesFailures(bundles));
  } finally {
    await stack.stop();
    if (built) removeBundles(built.bundles);
  }
  process.exit(exitCode);
}
if (only === 'endpoints') {
  try {
    const { endpointSpecs } = await import('./endpoints.ts');
    const { closeFloor } = await import('./floor.ts');
    const { receiver, fixtures } = await seededFixtures(stack);
    const chosen = process.env.BENCH_ENDPOINTS?.split(',')
      .map((route) => route.trim())
      .filter(Boolean);
    const rows = await measureEndpoints(
      endpointSpecs(fixtures, runId).filter((spec) => !chosen?.length || chosen.includes(spec.route)),
    );
    closeFloor();
    console.log(renderEndpoints(rows).join('\n'));
    await receiver.stop();
    exitCode = reportFailures(endpointsFailures(rows));
  } finally {
    await stack.stop();
  }
  process.exit(exitCode);
}
if (only === 'sustained') {
  try {
    const { endpointSpecs, send } = await import('./endpoints.ts');
    const { sustainedLoad } = await import('./sustained.ts');
    const { receiver, fixtures } = await seededFixtures(stack);
    const specs = endpointSpecs(fixtures, runId);
    for (const spec of specs) {
      await spec.prepare?.();
      // The redeliveries cycle over the test deliveries made so far: with one, the connections meet on it
      // while it is in flight (409). The full run has made hundreds by then.
      const requests = spec.route === 'test-webhook' ? 4 * CONCURRENCY : 1;
      for (let index = 0; index < requests; index++) await send(stack.apiUrl, spec);
    }
    // Deliveries still in flight cannot be redelivered (409): the queued work drains first, as in the full run.
    const { waitForQuiet } = await import('./quiet.ts');
    await waitForQuiet([stack.queueUrls.mail, stack.queueUrls.webhooks, stack.queueUrls.providerEvents]);
    log(`sustained load, ${SUSTAINED_SECONDS} s`);
    const sustained = await attempt(() =>
      sustainedLoad(fixtures, specs, {
        durationSeconds: SUSTAINED_SECONDS,
        sampleEverySeconds: 2,
        javaPid: javaChildren()[0],
        onSample: () => {
          stack.smtp.messages.length = 0;
        },
      }),
    );
    console.log(renderSustained(sustained, CONCURRENCY).join('\n'));
    await receiver.stop();
    exitCode = reportFailures(sustainedFailures(sustained));
  } finally {
    await stack.stop();
  }
  process.exit(exitCode);
}
if (only === 'enrollment') {
  try {
    const enrollment = await attempt(() => enrollmentOnStack(stack));
    console.log(renderEnrollment(enrollment).join('\n'));
    console.log(JSON.stringify(enrollment, null, 2));
    exitCode = reportFailures(enrollmentFailures(enrollment));
  } finally {
    await stack.stop();
  }
  process.exit(exitCode);
}
if (only === 'hot-items') {
  try {
    const hotItems = await attempt(() => hotItemsOnStack());
    console.log(renderHotItemsSection(hotItems));
    console.log(JSON.stringify(hotItems, null, 2));
    exitCode = reportFailures(hotItemsFailures(hotItems));
  } finally {
    await stack.stop();
  }
  process.exit(exitCode);
}
let measured: Awaited<ReturnType<typeof measureOnStack>>;
try {
  measured = await measureOnStack(stack);
} finally {
  // Also when a step fails: DynamoDB Local is a child process and must not outlive the bench.
  await stack.stop();
}

const report: BenchReport = {
  generatedAt: new Date().toISOString(),
  benchSeconds: round((performance.now() - benchStarted) / 1000, 0),
  machine: machineInfo,
  ...measured,
  bundles: bundlesSection ?? { failed: 'not measured' },
};
const markdown = renderMarkdown(report);
writeFileSync(resolve(PROJECT_ROOT, 'bench/report.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(resolve(PROJECT_ROOT, 'bench/report.md'), markdown);
console.log(markdown);
// Last, so the report with the failures in it is written first.
process.exit(reportFailures(benchFailures(report)));
