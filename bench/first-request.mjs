// Spawned once per function, as a fresh process on the Lambda runtime's Node major: imports one built bundle
// and invokes its handler with one event the local stack recorded, against the local stack, and prints how long
// the import and the first invocation took: a cold start's init plus its first request. Plain JavaScript: it
// runs without tsx.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bundle, eventFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  awsRequestId: 'bench-first-request',
  functionName: 'bench',
  functionVersion: '$LATEST',
  memoryLimitInMB: '512',
  getRemainingTimeInMillis: () => 10_000,
};
const started = performance.now();
const module = await import(pathToFileURL(bundle).href);
const imported = performance.now();
/** The `{message}` of an error body, else the body's start. */
const messageOf = (body) => {
  try {
    return String(JSON.parse(body).message);
  } catch {
    return String(body ?? '').slice(0, 200);
  }
};
let outcome = 'ok';
// An error answer's message, so that a failed replay says why (bench/failures.ts).
let detail;
try {
  const result = await module.handler(event, context);
  if (result && typeof result.statusCode === 'number') {
    outcome = String(result.statusCode);
    if (result.statusCode >= 400) detail = messageOf(result.body);
  }
} catch (error) {
  outcome = `threw ${error?.name ?? 'an error'}`;
  detail = String(error?.message ?? '').slice(0, 200);
}
const answered = performance.now();
process.stdout.write(
  JSON.stringify({ initMs: imported - started, firstRequestMs: answered - imported, outcome, detail }),
);
// Open keep-alive sockets of the SDK would hold the process; the figures are out.
process.exit(0);
