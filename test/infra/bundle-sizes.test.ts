import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FLOOR_ENTRY,
  initialBytes,
  initialNodeModules,
  measuredBuildOptions,
} from '../../bench/bundle-init.ts';
import { BUNDLE_BOUNDS } from '../../bench/report.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';
import { FUNCTION_ENTRIES, functionBundles } from '../support/bundles.ts';

/**
 * What a cold start of each function reads (its bundle's entry file and the
 * chunks it imports statically), against the floor: a bare DynamoDB function
 * (bench/floor-function) built in one file with esbuild's plain
 * `--bundle --minify --platform=node --format=esm --main-fields=module,main`.
 * Sizes are exact for given sources and dependencies, so this holds where the
 * bench's timings cannot: no function reads more than the floor (issue 36;
 * docs/architecture.md, Bundles).
 */

const MAX_RATIO = BUNDLE_BOUNDS.size;

/** Bytes read at init, by entry, from each build's metafile. */
const initSizes = new Map<string, number>();
/** Node's own modules imported at init, by entry. */
const initNodeModules = new Map<string, Set<string>>();
/** Node's own modules any output of the bundle imports, statically or with `import()`, by entry. */
const anyNodeModules = new Map<string, Set<string>>();

/**
 * Node modules whose import as an ES module costs far more than the code a
 * function needs of them: Node builds a module's namespace from every export
 * it has, and `node:http`'s lazy exports load undici, http2 and worker_threads
 * (about 25 ms of a cold start on Node 24; `require` of it takes 0.5 ms).
 * shared/platform/http-client.ts reads it with `process.getBuiltinModule`, and
 * the SDK's `import()` of it (for http endpoints) is resolved to that too
 * (infra/constructs/node-http-builtin.ts).
 */
const COSTLY_AS_ES_MODULES = ['node:http'];

beforeAll(async () => {
  // The functions as the bundle smoke test has them (built once per run, kept while their inputs hold).
  for (const [entry, { metafile }] of await functionBundles()) {
    initSizes.set(entry, initialBytes(metafile));
    initNodeModules.set(entry, initialNodeModules(metafile));
    const imported = Object.values(metafile.outputs).flatMap((output) => output.imports);
    anyNodeModules.set(
      entry,
      new Set(
        imported.filter(({ external }) => external).map(({ path }) => path.replace(/^(node:)?/, 'node:')),
      ),
    );
  }
  const { metafile } = await build({
    ...measuredBuildOptions(FLOOR_ENTRY, resolve(PROJECT_ROOT, FLOOR_ENTRY), join(tmpdir(), 'bundle-sizes')),
    metafile: true,
    write: false,
    absWorkingDir: PROJECT_ROOT,
  });
  initSizes.set(FLOOR_ENTRY, initialBytes(metafile));
}, 180_000);

const ratioOf = (entry: string) => initSizes.get(entry)! / initSizes.get(FLOOR_ENTRY)!;

describe('what a cold start reads, beside a bare DynamoDB function', () => {
  it.each(FUNCTION_ENTRIES.map((entry) => [entry]))('%s', (entry) => {
    const ratio = ratioOf(entry);
    expect(ratio, `${entry} is ${ratio.toFixed(3)}× the floor`).toBeLessThanOrEqual(MAX_RATIO);
  });

  it.each(FUNCTION_ENTRIES.map((entry) => [entry]))(
    '%s imports no Node module costly as an ES module',
    (entry) => {
      const costly = COSTLY_AS_ES_MODULES.filter((name) => initNodeModules.get(entry)!.has(name));
      expect(costly).toEqual([]);
      // Nor later, on a request: the SDK's `import()` for an http endpoint included.
      expect(COSTLY_AS_ES_MODULES.filter((name) => anyNodeModules.get(entry)!.has(name))).toEqual([]);
    },
  );

  it('declares the one module imported for its side effect (package.json sideEffects)', () => {
    // Every other module of shared/ and functions/ is free of side effects at import, so a bundle drops
    // what it imports but never uses (a schema module behind a constant) with everything that imports.
    const { sideEffects } = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      sideEffects: string[];
    };
    const bareImports = new Set<string>();
    for (const folder of ['shared', 'functions']) {
      for (const file of readdirSync(resolve(PROJECT_ROOT, folder), { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.ts')) continue;
        const source = readFileSync(resolve(PROJECT_ROOT, folder, file), 'utf8');
        for (const [, from] of source.matchAll(/^import '([^']+)';/gm)) bareImports.add(from!);
      }
    }
    expect([...bareImports]).toEqual(['#definitions/zod-english.ts']);
    expect(sideEffects).toEqual(['./shared/definitions/zod-english.ts']);
  });
});
