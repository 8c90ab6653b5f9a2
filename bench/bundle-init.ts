import type { BuildOptions, Metafile } from 'esbuild';
import { BUNDLE_ENTRY_FILE, bundleBuildOptions } from '../infra/constructs/service-function.ts';

/**
 * What the bench (bundles.ts) and the bundle size test (test/infra/bundle-sizes.test.ts)
 * measure alike: the floor every function's bundle is set beside, and what of a bundle
 * a cold start reads.
 */

/** A bare DynamoDB function (floor-function/handler.ts): the floor of every function's bundle. */
export const FLOOR_ENTRY = 'bench/floor-function/handler.ts';

/**
 * The build options of `entry`'s bundle: the functions' own (bundleBuildOptions),
 * but for the floor, which is built as issue 36 defines it: the SDK as it ships,
 * in one file, with esbuild's plain `--bundle --minify --platform=node
 * --format=esm --main-fields=module,main` and nothing of the functions' own
 * choices (splitting, target, banner, credential alias, SDK plugin).
 */
export const measuredBuildOptions = (entry: string, entryFile: string, outdir: string): BuildOptions =>
  entry === FLOOR_ENTRY
    ? {
        entryPoints: { index: entryFile },
        outdir,
        outExtension: { '.js': '.mjs' },
        bundle: true,
        minify: true,
        platform: 'node',
        format: 'esm',
        mainFields: ['module', 'main'],
        logLevel: 'silent',
      }
    : bundleBuildOptions(entryFile, outdir);

/** The output files a cold start reads: `file` and, transitively, what it imports statically. */
function staticallyImported(metafile: Metafile, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of metafile.outputs[file]?.imports ?? []) {
    if (imported.kind === 'import-statement' && !imported.external)
      staticallyImported(metafile, imported.path, seen);
  }
  return seen;
}

/** The output files a cold start of the bundle reads: its entry file and the chunks it imports statically. */
export function initialOutputs(metafile: Metafile): string[] {
  const entryOutput = Object.keys(metafile.outputs).find((output) =>
    output.endsWith(`/${BUNDLE_ENTRY_FILE}`),
  );
  if (!entryOutput) throw new Error(`The build has no ${BUNDLE_ENTRY_FILE}`);
  return [...staticallyImported(metafile, entryOutput)];
}

/** The bytes a cold start of the bundle reads. */
export const initialBytes = (metafile: Metafile): number =>
  initialOutputs(metafile).reduce((total, output) => total + metafile.outputs[output]!.bytes, 0);

/** The Node modules a cold start of the bundle imports (statically, from the files it reads). */
export const initialNodeModules = (metafile: Metafile): Set<string> =>
  new Set(
    initialOutputs(metafile).flatMap((output) =>
      metafile.outputs[output]!.imports.filter(
        (imported) => imported.kind === 'import-statement' && imported.path.startsWith('node:'),
      ).map((imported) => imported.path),
    ),
  );
