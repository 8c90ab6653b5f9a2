import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { localCredentials } from '#admin/local-credentials.ts';
import { queueDefinitions } from '#definitions/queues.ts';
import { handlerEntry, type RouteDefinition, routes } from '#definitions/routes.ts';
import { VARIABLES } from '#platform/config.ts';
import { BUNDLE_ENTRY_FILE } from '../infra/constructs/service-function.ts';
import { type LocalStack, localSecretsKey } from '../infra/local/stack.ts';
import { PROJECT_ROOT } from '../infra/paths.ts';
import { FLOOR_ENTRY, initialOutputs, measuredBuildOptions } from './bundle-init.ts';
import { firstRequestFailure, reasonOf, type SectionFailure } from './failures.ts';
import type { EventPreparer } from './first-events.ts';
import { median, round } from './load.ts';

/**
 * Every function's bundle, built as the stack builds it (bundleBuildOptions:
 * minified ESM for Node 24, the AWS SDK bundled, split into the entry and the
 * chunks it imports on demand), beside the floor: a bare DynamoDB function
 * (bench/floor-function) built in one file with esbuild's plain settings
 * (bundle-init.ts, measuredBuildOptions). For each: what a cold
 * start reads (the entry file and the chunks it imports statically), what is
 * shipped (every chunk), and the cold import time, `import()` of the bundle in
 * a fresh process on the Lambda runtime's Node major (24, from `npx node@24`)
 * when it can be had, else this Node. Then, on the running local stack, init
 * plus first request: a fresh process imports the bundle and invokes it once
 * with an event the stack recorded for that function.
 */

const run = promisify(execFile);

/** Times each bundle is imported in a fresh process; the fastest and the median are reported. */
const IMPORTS_PER_BUNDLE = 9;
/**
 * Rounds of init plus first request: each round runs every function once, each
 * right after a run of the floor, each in a fresh process; the ratio is the
 * median of a function's paired ratios. Nine, as for the imports: one pair's
 * ratio spreads by ±0.25 on a quiet machine (docs/architecture.md, Benchmark),
 * and with five the median of one run moved by up to 0.17 from that of nine.
 */
const FIRST_REQUEST_ROUNDS = 9;

export interface BundleFigures {
  function: string;
  entry: string;
  /** Why it could not be built or imported, if so. */
  error?: string;
  /** The entry file and the chunks it imports statically: what a cold start reads. */
  initKiB: number;
  gzippedInitKiB: number;
  /** Every chunk, loaded on demand or not. */
  shippedKiB: number;
  /** Median import time in a fresh process, in ms. */
  coldImportMs: number;
  coldImportMinMs: number;
  coldImportMaxMs: number;
  /** This bundle's init size ÷ the floor's. */
  sizeRatio: number;
  /**
   * This bundle's fastest cold import ÷ the floor's: what the import costs
   * without the load of whatever else the machine runs, which only ever adds
   * time, and adds it unevenly (the medians of one run scatter by ±15 %
   * between runs on a shared 2-core machine; the fastest, by a few %).
   */
  importRatio: number;
  /** The same with the medians. */
  medianImportRatio: number;
}

export interface FirstRequestFigures {
  function: string;
  /** Medians over the rounds' fresh processes, in ms: the import, the first invocation, and both. */
  initMs: number;
  firstRequestMs: number;
  totalMs: number;
  /** The fastest process's import plus first invocation, in ms. */
  fastestTotalMs: number;
  /** The first invocation's status code (HTTP functions), `ok`, or what it threw. */
  outcome: string;
  /**
   * The median, over the rounds, of the total ÷ the floor's total run just
   * before it: load from other work comes and goes, and falls on both runs of
   * a pair alike, where a floor measured once would be set beside every
   * function's load of another moment.
   */
  ratio: number;
  /** The fastest total ÷ the floor's fastest. */
  fastestRatio: number;
  /** Why a process gave no figures (it failed or timed out), if so. */
  error?: string;
  /** An error answer's body or what the handler threw, if so. */
  detail?: string;
}

export interface BundleReport {
  node: string;
  nodeSource: string;
  importsPerBundle: number;
  /** The bare DynamoDB function with the functions' settings. */
  floor: BundleFigures;
  bundles: BundleFigures[];
  /** A failure in place of the figures when the measurement threw (bench/failures.ts). */
  firstRequests?: FirstRequests | SectionFailure;
}

export interface FirstRequests {
  /** Rounds, each a fresh process of the floor and of every function. */
  rounds: number;
  floor: FirstRequestFigures;
  functions: FirstRequestFigures[];
  /** Functions the stack did not invoke during the run, so there was no event to replay. */
  withoutEvent: string[];
}

interface FunctionEntry {
  name: string;
  entry: string;
  /** Files of installed packages the stack ships beside the bundle (read at run time). */
  packageFiles: readonly string[];
}

/** Every function of the stack: one per handler folder the manifest names, the authorizer, the relay, each consumer. */
export function functionEntries(): FunctionEntry[] {
  const entries = new Map<string, FunctionEntry>();
  for (const route of routes as readonly (RouteDefinition & { packageFiles?: readonly string[] })[]) {
    const entry = handlerEntry(route);
    const packageFiles = route.packageFiles ?? [];
    const known = [...entries.values()].find((candidate) => candidate.entry === entry);
    if (known) known.packageFiles = [...new Set([...known.packageFiles, ...packageFiles])];
    else entries.set(entry, { name: route.handler ?? route.name, entry, packageFiles });
  }
  const others: [string, string][] = [
    ['authorizer', 'functions/authorizer/handler.ts'],
    ['stream-relay', 'functions/stream-relay/handler.ts'],
    ...Object.entries(queueDefinitions).map(([queue, definition]): [string, string] => [
      `${queue}-consumer`,
      definition.consumer,
    ]),
  ];
  for (const [name, entry] of others) entries.set(entry, { name, entry, packageFiles: [] });
  return [...entries.values()];
}

/** The Node 24 binary (what Lambda runs), or this Node when npx cannot provide it. */
async function lambdaNode(): Promise<{ path: string; version: string; source: string }> {
  try {
    const { stdout } = await run('npx', ['-y', 'node@24', '-p', 'process.execPath + " " + process.version'], {
      timeout: 120_000,
    });
    const [path, version] = stdout.trim().split(' ');
    if (path && version?.startsWith('v24.'))
      return { path, version, source: 'npx node@24 (the Lambda runtime’s major)' };
  } catch {
    // Offline or no npx: fall back below.
  }
  return { path: process.execPath, version: process.version, source: 'this Node (node@24 unavailable)' };
}

/** The environment a function reads at load time (as in the stack), with placeholder values. */
function loadEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    TABLE_NAME: 'bench-table',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_SERVICE_NAME: 'outreach-public-api',
  };
  for (const definition of Object.values(queueDefinitions)) {
    environment[definition.urlVariable] = 'https://sqs.eu-west-1.amazonaws.com/000000000000/bench';
  }
  return environment;
}

/** A built bundle: where it is and its sizes. */
interface BuiltBundle {
  name: string;
  entry: string;
  /** The entry file. */
  file: string;
  initBytes: number;
  gzippedInitBytes: number;
  shippedBytes: number;
  error?: string;
}

export interface BuiltBundles {
  folder: string;
  node: { path: string; version: string; source: string };
  floor: BuiltBundle;
  functions: BuiltBundle[];
}

async function buildOne(folder: string, { name, entry, packageFiles }: FunctionEntry): Promise<BuiltBundle> {
  const outdir = join(folder, name);
  const file = join(outdir, BUNDLE_ENTRY_FILE);
  try {
    const { metafile } = await build({
      ...measuredBuildOptions(entry, resolve(PROJECT_ROOT, entry), outdir),
      metafile: true,
      absWorkingDir: PROJECT_ROOT,
    });
    // As the stack ships them: under node_modules beside the bundle, where Node resolves them.
    for (const packageFile of packageFiles) {
      cpSync(resolve(PROJECT_ROOT, 'node_modules', packageFile), join(outdir, 'node_modules', packageFile));
    }
    const initial = initialOutputs(metafile);
    const initialText = Buffer.concat(initial.map((output) => readFileSync(resolve(PROJECT_ROOT, output))));
    return {
      name,
      entry,
      file,
      initBytes: initialText.length,
      gzippedInitBytes: gzipSync(initialText).length,
      shippedBytes: Object.values(metafile.outputs).reduce((total, output) => total + output.bytes, 0),
    };
  } catch (error) {
    return {
      name,
      entry,
      file,
      initBytes: Number.NaN,
      gzippedInitBytes: Number.NaN,
      shippedBytes: Number.NaN,
      error: (error as Error).message.split('\n')[0],
    };
  }
}

/** Builds the floor and every function's bundle into a folder of its own (removeBundles deletes it). */
export async function buildBundles(): Promise<BuiltBundles> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  const node = await lambdaNode();
  const floorEntry = { name: 'floor', entry: FLOOR_ENTRY, packageFiles: [] };
  const floor = await buildOne(folder, floorEntry);
  const functions: BuiltBundle[] = [];
  for (const entry of functionEntries()) functions.push(await buildOne(folder, entry));
  return { folder, node, floor, functions };
}

export function removeBundles(built: BuiltBundles): void {
  rmSync(built.folder, { recursive: true, force: true });
}

const kib = (bytes: number) => round(bytes / 1024, 1);

async function coldImport(nodePath: string, bundle: BuiltBundle): Promise<number> {
  const { stdout } = await run(nodePath, [resolve(PROJECT_ROOT, 'bench/cold-import.mjs'), bundle.file], {
    env: loadEnvironment(),
    cwd: resolve(bundle.file, '..'),
  });
  return (JSON.parse(stdout) as { importMs: number }).importMs;
}

/**
 * `IMPORTS_PER_BUNDLE` cold imports of each bundle, in rounds: every round
 * imports the floor and each bundle once, so a stretch of load on the machine
 * falls on all of them alike instead of on the few measured during it. A
 * bundle that fails to import is left out of the rounds after its failure.
 */
async function coldImportRounds(
  nodePath: string,
  bundles: BuiltBundle[],
): Promise<Map<BuiltBundle, number[] | Error>> {
  const times = new Map<BuiltBundle, number[] | Error>(
    bundles.filter((bundle) => !bundle.error).map((bundle) => [bundle, []]),
  );
  for (let round = 0; round < IMPORTS_PER_BUNDLE; round++) {
    for (const [bundle, sofar] of times) {
      if (sofar instanceof Error) continue;
      try {
        sofar.push(await coldImport(nodePath, bundle));
      } catch (error) {
        times.set(bundle, error as Error);
      }
    }
  }
  return times;
}

/** Sizes and cold imports of the floor and every function. */
export async function measureBundles(built: BuiltBundles): Promise<BundleReport> {
  const imports = await coldImportRounds(built.node.path, [built.floor, ...built.functions]);
  const figures = (bundle: BuiltBundle, floor?: BundleFigures): BundleFigures => {
    const none = Number.NaN;
    const failed = (error: string): BundleFigures => ({
      function: bundle.name,
      entry: bundle.entry,
      error,
      initKiB: none,
      gzippedInitKiB: none,
      shippedKiB: none,
      coldImportMs: none,
      coldImportMinMs: none,
      coldImportMaxMs: none,
      sizeRatio: none,
      importRatio: none,
      medianImportRatio: none,
    });
    if (bundle.error) return failed(bundle.error);
    const times = imports.get(bundle);
    if (times instanceof Error) return failed(times.message.split('\n')[0] ?? 'import failed');
    if (!times) return failed('not imported');
    const coldImportMs = median(times);
    const fastestMs = Math.min(...times);
    return {
      function: bundle.name,
      entry: bundle.entry,
      initKiB: kib(bundle.initBytes),
      gzippedInitKiB: kib(bundle.gzippedInitBytes),
      shippedKiB: kib(bundle.shippedBytes),
      coldImportMs: round(coldImportMs, 1),
      coldImportMinMs: round(fastestMs, 1),
      coldImportMaxMs: round(Math.max(...times), 1),
      sizeRatio: floor ? round(bundle.initBytes / (floor.initKiB * 1024), 2) : 1,
      importRatio: floor ? round(fastestMs / floor.coldImportMinMs, 2) : 1,
      medianImportRatio: floor ? round(coldImportMs / floor.coldImportMs, 2) : 1,
    };
  };
  const floor = figures(built.floor);
  const bundles = built.functions.map((bundle) => figures(bundle, floor));
  return {
    node: built.node.version,
    nodeSource: built.node.source,
    importsPerBundle: IMPORTS_PER_BUNDLE,
    floor,
    bundles,
  };
}

/** What a bundle reads on Lambda, pointed at the running local stack instead (as its in-process handlers are). */
function stackEnvironment(stack: LocalStack): Record<string, string> {
  const { accessKeyId, secretAccessKey } = localCredentials();
  const environment: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    [VARIABLES.region]: stack.region,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    [VARIABLES.tableName]: stack.tableName,
    [VARIABLES.dynamodbEndpoint]: stack.dynamodbEndpoint,
    [VARIABLES.sqsEndpoint]: stack.sqsEndpoint,
    [VARIABLES.mailTransport]: 'smtp',
    [VARIABLES.smtpUrl]: stack.smtpUrl,
    [VARIABLES.secretsLocalKey]: localSecretsKey(),
    [VARIABLES.webhookAllowHttpLoopback]: 'true',
    // The local stack serves http, so its session cookie is the plain one (shared/admin/target.ts): with the
    // deployed `__Host-` name, the dashboard and the consent page would answer the replay with sign-in.
    [VARIABLES.dashboardSecureCookies]: 'false',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  for (const [queue, definition] of Object.entries(queueDefinitions)) {
    environment[definition.urlVariable] = stack.queueUrls[queue as keyof typeof stack.queueUrls];
  }
  if (stack.openIdProvider) {
    environment[VARIABLES.dashboardOidcIssuer] = stack.openIdProvider.issuer;
    environment[VARIABLES.dashboardOidcClientId] = stack.openIdProvider.clientId;
  }
  return environment;
}

/**
 * Init plus first request, per function that the stack invoked during the run
 * (`events`, by entry file: the first event each got), and for the floor
 * (one GetItem). Each run is a fresh process on the Lambda runtime's Node.
 */
export async function measureFirstRequests(
  built: BuiltBundles,
  stack: LocalStack,
  events: ReadonlyMap<string, unknown>,
  /** By function: makes again what a replay acts on, before each one (bench/first-events.ts). */
  preparers: Record<string, EventPreparer> = {},
): Promise<FirstRequests> {
  const environment = stackEnvironment(stack);
  interface Run {
    initMs: number;
    firstRequestMs: number;
    outcome: string;
    detail?: string;
  }
  /** One fresh process: the import and the first invocation of `bundle` with `event`. */
  const runOnce = async (bundle: BuiltBundle, event: unknown): Promise<Run> => {
    const eventFile = join(built.folder, `${bundle.name}.event.json`);
    const prepare = preparers[bundle.name];
    writeFileSync(eventFile, JSON.stringify(prepare ? await prepare(event) : event));
    const { stdout } = await run(
      built.node.path,
      [resolve(PROJECT_ROOT, 'bench/first-request.mjs'), bundle.file, eventFile],
      { env: environment, cwd: resolve(bundle.file, '..'), timeout: 60_000 },
    );
    return JSON.parse(stdout) as Run;
  };
  const floorEvent = { pk: 'FLOOR', sk: 'FLOOR' };
  const measured: { bundle: BuiltBundle; event: unknown }[] = [{ bundle: built.floor, event: floorEvent }];
  const withoutEvent: string[] = [];
  for (const bundle of built.functions) {
    const event = events.get(bundle.entry);
    if (bundle.error || event === undefined) withoutEvent.push(bundle.name);
    else measured.push({ bundle, event });
  }
  const runs = new Map<BuiltBundle, Run[] | Error>(measured.map(({ bundle }) => [bundle, []]));
  /** By function: each of its totals ÷ the floor's total run just before it. */
  const pairedRatios = new Map<BuiltBundle, number[]>();
  const runInto = async (bundle: BuiltBundle, event: unknown): Promise<Run | null> => {
    const sofar = runs.get(bundle);
    if (!sofar || sofar instanceof Error) return null;
    try {
      const run = await runOnce(bundle, event);
      sofar.push(run);
      return run;
    } catch (error) {
      runs.set(bundle, error as Error);
      return null;
    }
  };
  const total = (run: Run) => run.initMs + run.firstRequestMs;
  for (let round = 0; round < FIRST_REQUEST_ROUNDS; round++) {
    for (const { bundle, event } of measured.slice(1)) {
      // The floor right before each function: load that comes and goes falls on both of a pair alike.
      const floorRun = await runInto(built.floor, floorEvent);
      const run = await runInto(bundle, event);
      if (floorRun && run)
        pairedRatios.set(bundle, [...(pairedRatios.get(bundle) ?? []), total(run) / total(floorRun)]);
    }
  }
  const figuresOf = (bundle: BuiltBundle): FirstRequestFigures => {
    const none = Number.NaN;
    const ofBundle = runs.get(bundle);
    if (!ofBundle || ofBundle instanceof Error || ofBundle.length === 0) {
      const error = ofBundle instanceof Error ? reasonOf(ofBundle) : 'not run';
      const failed = { initMs: none, firstRequestMs: none, totalMs: none, fastestTotalMs: none };
      return {
        function: bundle.name,
        ...failed,
        ratio: none,
        fastestRatio: none,
        outcome: 'no answer',
        error,
      };
    }
    const totals = ofBundle.map(total);
    // An error answer in any round measured another path than the function's work.
    const failedRun = ofBundle.find((entry) => firstRequestFailure(entry));
    const reported = failedRun ?? ofBundle.at(-1)!;
    return {
      function: bundle.name,
      initMs: round(median(ofBundle.map((entry) => entry.initMs)), 1),
      firstRequestMs: round(median(ofBundle.map((entry) => entry.firstRequestMs)), 1),
      totalMs: round(median(totals), 1),
      fastestTotalMs: round(Math.min(...totals), 1),
      outcome: reported.outcome,
      ...(reported.detail !== undefined && { detail: reported.detail }),
      ratio: 1,
      fastestRatio: 1,
    };
  };
  const floor = figuresOf(built.floor);
  const functions = measured.slice(1).map(({ bundle }) => {
    const figures = figuresOf(bundle);
    const paired = pairedRatios.get(bundle) ?? [];
    return {
      ...figures,
      ratio: paired.length > 0 ? round(median(paired), 2) : Number.NaN,
      fastestRatio: round(figures.fastestTotalMs / floor.fastestTotalMs, 2),
    };
  });
  return { rounds: FIRST_REQUEST_ROUNDS, floor, functions, withoutEvent };
}
