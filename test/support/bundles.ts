import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { queueDefinitions } from '#definitions/queues.ts';
import { handlerEntry, routes } from '#definitions/routes.ts';
import { BUNDLE_ENTRY_FILE, bundleBuildOptions } from '../../infra/constructs/service-function.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/**
 * Every function's bundle, built with the stack's bundle settings
 * (`bundleBuildOptions`), at most once per run and not at all when nothing
 * they are built from changed: the bundles are kept under
 * `node_modules/.cache/outreach-bundles/<hash>`, where the hash covers every
 * input of the build (the functions' and shared code, the build settings, the
 * package manifest and lock file, tsconfig.json).
 */

/** Every function of the stack: one per handler folder the manifest names, the authorizer, the relay, each consumer. */
export const FUNCTION_ENTRIES: readonly string[] = [
  ...new Set([
    ...routes.map((route) => handlerEntry(route)),
    'functions/authorizer/handler.ts',
    'functions/stream-relay/handler.ts',
    ...Object.values(queueDefinitions).map((definition) => definition.consumer),
  ]),
];

const INPUTS = [
  'functions',
  'shared',
  'infra/constructs',
  // The openapi function serves the committed document.
  'docs/openapi.json',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  // How they are built and kept (the metafile beside each bundle).
  'test/support/bundles.ts',
];

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** A hash of everything the bundles are built from. */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(resolve(PROJECT_ROOT, input)))) {
    hash.update(relative(PROJECT_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 20);
}

/** An entry's output folder: its bundle's entry file and the chunks it imports on demand. */
const outdirOf = (folder: string, entry: string) => join(folder, entry.replace(/[/.]/g, '_'));
/** The build's metafile, kept beside the bundle for the size test (test/infra/bundle-sizes.test.ts). */
const METAFILE = 'metafile.json';

/** A built function: its bundle's entry file, and the build's metafile (paths relative to PROJECT_ROOT). */
export interface FunctionBundle {
  file: string;
  metafile: Metafile;
}

/** Whether the process of `pid` is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Takes the lock of building `folder`, a directory naming its holder's pid:
 * the two test files that need the bundles (bundles.test.ts and
 * bundle-sizes.test.ts) run in two workers at once, and one build serves both.
 * Resolves true with the lock held, or false once another process has built
 * the folder; a lock whose holder is gone is taken over.
 */
async function buildLock(folder: string): Promise<boolean> {
  const lock = `${folder}.lock`;
  for (;;) {
    if (existsSync(folder)) return false;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return true;
    } catch {
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // Taken a moment ago, its pid not written yet.
      }
      if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The built bundle of each entry of FUNCTION_ENTRIES, by entry. */
export async function functionBundles(): Promise<Map<string, FunctionBundle>> {
  const cache = resolve(PROJECT_ROOT, 'node_modules/.cache/outreach-bundles');
  const folder = join(cache, inputsHash());
  mkdirSync(cache, { recursive: true });
  if (await buildLock(folder)) {
    try {
      // Built aside and renamed into place, so a folder that exists is complete.
      const building = mkdtempSync(join(cache, 'building-'));
      for (const entry of FUNCTION_ENTRIES) {
        const outdir = outdirOf(building, entry);
        const { metafile } = await build({
          ...bundleBuildOptions(resolve(PROJECT_ROOT, entry), outdir),
          metafile: true,
          absWorkingDir: PROJECT_ROOT,
        });
        writeFileSync(join(outdir, METAFILE), JSON.stringify(metafile));
      }
      renameSync(building, folder);
      // Older builds are of inputs that changed since (the lock keeps this one's builder alone).
      for (const old of readdirSync(cache)) {
        if (join(cache, old) !== folder && !old.endsWith('.lock'))
          rmSync(join(cache, old), { recursive: true, force: true });
      }
    } finally {
      rmSync(`${folder}.lock`, { recursive: true, force: true });
    }
  }
  return new Map(
    FUNCTION_ENTRIES.map((entry) => {
      const outdir = outdirOf(folder, entry);
      const metafile = JSON.parse(readFileSync(join(outdir, METAFILE), 'utf8')) as Metafile;
      return [entry, { file: join(outdir, BUNDLE_ENTRY_FILE), metafile }];
    }),
  );
}
