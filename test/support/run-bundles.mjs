// Runs on the Lambda runtime's Node major (spawned with `npx node@24`): imports
// each built bundle and invokes its handler with a minimal event, writing
// what came back as JSON to the file named second (stdout is the functions'
// own: their metrics records). Plain JavaScript: it must run without tsx.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const context = { awsRequestId: 'smoke', functionName: 'smoke', getRemainingTimeInMillis: () => 10_000 };
const results = [];
for (const { name, bundle, event } of cases) {
  try {
    const module = await import(pathToFileURL(bundle).href);
    const output = await module.handler(event, context);
    results.push({ name, ok: true, output });
  } catch (error) {
    results.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
}
writeFileSync(process.argv[3], JSON.stringify({ node: process.versions.node, results }));
