import { resolve } from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../paths.ts';
import { bundleBuildOptions } from './service-function.ts';

/**
 * `node --import tsx infra/constructs/bundle-function.ts <entry> <outdir>`:
 * builds one function's bundle with source maps, as the stack deploys it.
 * CDK's bundling hook is synchronous and esbuild runs plugins (sdkSchemaKeys)
 * only in its asynchronous API, so the stack runs this in a child process.
 */
const [entry, outdir] = process.argv.slice(2);
if (!entry || !outdir) {
  console.error('Usage: bundle-function.ts <entry> <outdir>');
  process.exit(2);
}
await build({ ...bundleBuildOptions(resolve(PROJECT_ROOT, entry), outdir), sourcemap: true });
