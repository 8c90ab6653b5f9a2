import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { queueDefinitions } from '#definitions/queues.ts';
import { handlerEntry, type RouteDefinition, routes } from '#definitions/routes.ts';
import { bundleBuildOptions } from '../infra/constructs/service-function.ts';
import { PROJECT_ROOT } from '../infra/paths.ts';
import { round } from './load.ts';

/**
 * Every function's bundle, built as the stack builds it (esbuild with the
 * stack's BUNDLE settings, minified ESM), its size raw and gzipped, and its
 * cold import time: `import()` of the bundle in a fresh Node process, on the
 * Lambda runtime's Node major (24, from `npx node@24`) when it can be had,
 * else this Node.
 */

const run = promisify(execFile);

/** Times each bundle is imported in a fresh process; the median is reported. */
const IMPORTS_PER_BUNDLE = 3;

export interface BundleFigures {
  function: string;
  entry: string;
  /** Why it could not be built or imported, if so. */
  error?: string;
  minifiedKiB: number;
  gzippedKiB: number;
  /** Median import time in a fresh process, in ms. */
  coldImportMs: number;
  coldImportMinMs: number;
  coldImportMaxMs: number;
}

export interface BundleReport {
  node: string;
  nodeSource: string;
  importsPerBundle: number;
  bundles: BundleFigures[];
}

interface FunctionEntry {
  name: string;
  entry: string;
  /** Files of installed packages the stack ships beside the bundle (read at run time). */
  packageFiles: readonly string[];
}

/** Every function of the stack: one per handler folder the manifest names, the authorizer, the relay, each consumer. */
function functionEntries(): FunctionEntry[] {
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

/** Builds and measures every function's bundle. */
export async function measureBundles(): Promise<BundleReport> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  const node = await lambdaNode();
  const environment = loadEnvironment();
  const bundles: BundleFigures[] = [];
  try {
    for (const { name, entry, packageFiles } of functionEntries()) {
      bundles.push(await measureBundle(folder, name, entry, packageFiles, node.path, environment));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return { node: node.version, nodeSource: node.source, importsPerBundle: IMPORTS_PER_BUNDLE, bundles };
}

async function measureBundle(
  folder: string,
  name: string,
  entry: string,
  packageFiles: readonly string[],
  nodePath: string,
  environment: Record<string, string>,
): Promise<BundleFigures> {
  const outfile = join(folder, name, 'index.mjs');
  try {
    await build(bundleBuildOptions(resolve(PROJECT_ROOT, entry), outfile));
    // As the stack ships them: under node_modules beside the bundle, where Node resolves them.
    for (const file of packageFiles) {
      cpSync(resolve(PROJECT_ROOT, 'node_modules', file), join(folder, name, 'node_modules', file));
    }
    const times: number[] = [];
    for (let index = 0; index < IMPORTS_PER_BUNDLE; index++) {
      const { stdout } = await run(nodePath, [resolve(PROJECT_ROOT, 'bench/cold-import.mjs'), outfile], {
        env: environment,
        cwd: join(folder, name),
      });
      times.push((JSON.parse(stdout) as { importMs: number }).importMs);
    }
    times.sort((a, b) => a - b);
    return {
      function: name,
      entry,
      minifiedKiB: round(statSync(outfile).size / 1024, 1),
      gzippedKiB: round(gzipSync(readFileSync(outfile)).length / 1024, 1),
      coldImportMs: round(times[Math.floor(times.length / 2)]!, 1),
      coldImportMinMs: round(times[0]!, 1),
      coldImportMaxMs: round(times.at(-1)!, 1),
    };
  } catch (error) {
    const none = Number.NaN;
    return {
      function: name,
      entry,
      error: (error as Error).message.split('\n')[0],
      minifiedKiB: none,
      gzippedKiB: none,
      coldImportMs: none,
      coldImportMinMs: none,
      coldImportMaxMs: none,
    };
  }
}
