import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { startLocalStack } from '../infra/local/stack.ts';
import { PROJECT_ROOT } from '../infra/paths.ts';

/**
 * `npm run bench`: one run on the local stack (its own DynamoDB Local, in
 * memory), writing bench/report.md and bench/report.json. It reports figures;
 * nothing here is a test, and nothing asserts times.
 */

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);

const stack = await startLocalStack({ port: 0 });
const { countRequests } = await import('../test/support/request-counter.ts');
const { seedDemo } = await import('../shared/admin/seed.ts');
const { apiKey } = await seedDemo();

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (value: number) => Math.round(value * 100) / 100;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}/public/v1${path}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const campaigns = (await call('GET', '/campaigns')).campaigns as { id: number }[];
const campaignId = campaigns[0]!.id;
const accounts = (await call('GET', `/campaigns/${campaignId}/accounts`)).accounts as {
  id: number;
  domain: string;
}[];
const jobDomain = accounts[0]?.domain ?? 'example.com';

const endpoints: [string, string, string, unknown?][] = [
  ['GET /auth', 'GET', '/auth'],
  ['GET /campaigns', 'GET', '/campaigns'],
  ['GET /campaigns/{id}', 'GET', `/campaigns/${campaignId}`],
  ['GET /campaigns/{id}/accounts', 'GET', `/campaigns/${campaignId}/accounts`],
  ['GET /campaigns/{id}/contacts', 'GET', `/campaigns/${campaignId}/contacts`],
  ['GET /campaigns/{id}/contacts?status=replied', 'GET', `/campaigns/${campaignId}/contacts?status=replied`],
  ['GET /campaigns/{id}/messages', 'GET', `/campaigns/${campaignId}/messages`],
  [
    'GET /accounts?domain',
    'GET',
    `/accounts?domain=${encodeURIComponent(accounts[0]?.domain ?? 'example.com')}`,
  ],
  ['GET /jobs/{domain}', 'GET', `/jobs/${encodeURIComponent(jobDomain)}`],
  ['GET /analytics/overview', 'GET', '/analytics/overview'],
  [
    'POST /campaigns/{id}/raw/contacts/check-eligibility (10 emails)',
    'POST',
    `/campaigns/${campaignId}/raw/contacts/check-eligibility`,
    {
      emails: Array.from({ length: 10 }, (_, index) => `bench${index}@bench.example`),
    },
  ],
];

const rows: { endpoint: string; p50: number; p95: number; p99: number; requests: number }[] = [];
for (const [name, method, path, body] of endpoints) {
  await call(method, path, body); // warm the authorizer cache and module state
  const { count } = await countRequests(() => call(method, path, body));
  const times: number[] = [];
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const started = performance.now();
    await call(method, path, body);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  rows.push({
    endpoint: name,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    p99: round(percentile(times, 99)),
    requests: count,
  });
}

async function timed<T>(fn: () => Promise<T>) {
  const started = performance.now();
  const { result, count, byCommand } = await countRequests(fn);
  return { result, ms: round(performance.now() - started), requests: count, byCommand };
}
const bulkEmails = Array.from({ length: 1000 }, (_, index) => `bulk${index}@bulk${index % 40}.example`);
const dryRun = await timed(() =>
  call('POST', `/campaigns/${campaignId}/raw/contacts/check-eligibility`, { emails: bulkEmails }),
);
const push = await timed(() =>
  call('POST', `/campaigns/${campaignId}/raw/contacts`, {
    contacts: bulkEmails.map((email, index) => ({
      email,
      firstName: `B${index}`,
      variables: { opener: `Hi ${index}` },
    })),
  }),
);

const report = {
  generatedAt: new Date().toISOString(),
  machine: {
    cores: cpus().length,
    memoryGiB: round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
  },
  iterationsPerEndpoint: ITERATIONS,
  endpoints: rows,
  rawOperations: {
    dryRun1000: { ms: dryRun.ms, requests: dryRun.requests, byCommand: dryRun.byCommand },
    push1000: {
      ms: push.ms,
      requests: push.requests,
      byCommand: push.byCommand,
      created: push.result.created,
    },
  },
};
await stack.stop();

const lines = [
  '# Benchmark report',
  '',
  `Generated ${report.generatedAt} on ${report.machine.cores} cores, ${report.machine.memoryGiB} GiB, Node ${report.machine.node}.`,
  'Local stack (DynamoDB Local in memory, in-process gateway), demo seed, sequential requests over loopback.',
  '',
  `## Latency and DynamoDB requests per endpoint (${ITERATIONS} sequential calls each)`,
  '',
  '| endpoint | p50 ms | p95 ms | p99 ms | DynamoDB requests |',
  '|---|---:|---:|---:|---:|',
  ...rows.map((row) => `| ${row.endpoint} | ${row.p50} | ${row.p95} | ${row.p99} | ${row.requests} |`),
  '',
  '## Raw operations',
  '',
  '| operation | wall ms | DynamoDB requests | by operation |',
  '|---|---:|---:|---|',
  `| dry run, 1,000 emails | ${dryRun.ms} | ${dryRun.requests} | ${JSON.stringify(dryRun.byCommand)} |`,
  `| push, 1,000 new contacts | ${push.ms} | ${push.requests} | ${JSON.stringify(push.byCommand)} |`,
  '',
];
writeFileSync(resolve(PROJECT_ROOT, 'bench/report.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(resolve(PROJECT_ROOT, 'bench/report.md'), lines.join('\n'));
console.log(lines.join('\n'));
process.exit(0);
