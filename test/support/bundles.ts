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
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
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

/** The built bundle of each entry of FUNCTION_ENTRIES, by entry. */
export async function functionBundles(): Promise<Map<string, string>> {
  const cache = resolve(PROJECT_ROOT, 'node_modules/.cache/outreach-bundles');
  const folder = join(cache, inputsHash());
  if (!existsSync(folder)) {
    mkdirSync(cache, { recursive: true });
    // Built aside and renamed into place, so a folder that exists is complete.
    const building = mkdtempSync(join(cache, 'building-'));
    for (const entry of FUNCTION_ENTRIES) {
      await build(bundleBuildOptions(resolve(PROJECT_ROOT, entry), outdirOf(building, entry)));
    }
    try {
      renameSync(building, folder);
    } catch {
      // Another run built the same bundles meanwhile.
      rmSync(building, { recursive: true, force: true });
    }
    // Older builds are of inputs that changed since.
    for (const old of readdirSync(cache)) {
      if (join(cache, old) !== folder && !old.startsWith('building-'))
        rmSync(join(cache, old), { recursive: true, force: true });
    }
  }
  return new Map(FUNCTION_ENTRIES.map((entry) => [entry, join(outdirOf(folder, entry), BUNDLE_ENTRY_FILE)]));
}
