import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { queueDefinitions } from '#definitions/queues.ts';
import { handlerEntry, routes } from '#definitions/routes.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';
import { FUNCTION_ENTRIES, type FunctionBundle, functionBundles } from '../support/bundles.ts';

/**
 * Every function's bundle, built with the stack's bundle settings (once, and
 * kept while its inputs do not change: test/support/bundles.ts), loads and
 * answers a minimal event on Node 24 (the Lambda runtime's major), run through
 * `npx node@24`. The events stop before any AWS call (no key, empty batches),
 * so the test needs no emulator.
 */

const run = promisify(execFile);

interface SmokeCase {
  name: string;
  entry: string;
  event: unknown;
  expect: (output: { ok: boolean; output?: unknown; error?: string }) => void;
}

const apiEvent = (method: string, headers: Record<string, string> = {}) => ({
  httpMethod: method === 'ANY' ? 'GET' : method,
  resource: '/',
  path: '/',
  headers,
  queryStringParameters: null,
  pathParameters: null,
  body: null,
  isBase64Encoded: false,
  // API Gateway always names the domain it routed through; the service's own URL is built from it.
  requestContext: {
    requestId: 'smoke',
    stage: 'smoke',
    domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
  },
});

const cases: SmokeCase[] = [
  ...routes.map((route) => ({
    name: route.name,
    entry: handlerEntry(route),
    event: apiEvent(route.method),
    expect: (result: { ok: boolean; output?: unknown }) => {
      expect(result.ok).toBe(true);
      const { statusCode } = result.output as { statusCode: number };
      // Without a key, API routes stop at 401; the unauthenticated ones answer for themselves, never with a 5xx.
      if (route.auth === 'apiKey') expect(statusCode).toBe(401);
      else expect(statusCode).toBeLessThan(500);
    },
  })),
  {
    name: 'authorizer',
    entry: 'functions/authorizer/handler.ts',
    event: {
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:1:api/stage/GET/x',
      headers: { 'x-api-key': 'abc' },
    },
    expect: (result) => expect(result).toMatchObject({ ok: false, error: 'Unauthorized' }),
  },
  {
    name: 'stream-relay',
    entry: 'functions/stream-relay/handler.ts',
    event: { Records: [] },
    expect: (result) =>
      expect(result).toEqual({ name: 'stream-relay', ok: true, output: { batchItemFailures: [] } }),
  },
  ...Object.entries(queueDefinitions).map(([name, definition]) => ({
    name: `${name}-consumer`,
    entry: definition.consumer,
    event: { Records: [] },
    expect: (result: { ok: boolean; output?: unknown }) =>
      expect(result).toMatchObject({ ok: true, output: { batchItemFailures: [] } }),
  })),
];

let report: { node: string; results: { name: string; ok: boolean; output?: unknown; error?: string }[] };
/** What the functions printed: their embedded-metric records. */
let functionOutput: string;
let bundles: Map<string, FunctionBundle>;

beforeAll(async () => {
  bundles = await functionBundles();
  const folder = mkdtempSync(join(tmpdir(), 'bundles-'));
  const casesFile = join(folder, 'cases.json');
  writeFileSync(
    casesFile,
    JSON.stringify(
      cases.map((smoke) => ({
        name: smoke.name,
        bundle: bundles.get(smoke.entry)?.file,
        event: smoke.event,
      })),
    ),
  );
  const environment: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TABLE_NAME: 'smoke-table',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'smoke',
    AWS_SECRET_ACCESS_KEY: 'smoke',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  };
  for (const definition of Object.values(queueDefinitions)) {
    environment[definition.urlVariable] = 'https://sqs.eu-west-1.amazonaws.com/000000000000/smoke';
  }
  const reportFile = join(folder, 'report.json');
  ({ stdout: functionOutput } = await run(
    'npx',
    ['-y', 'node@24', resolve(PROJECT_ROOT, 'test/support/run-bundles.mjs'), casesFile, reportFile],
    {
      env: environment,
      maxBuffer: 16 * 1024 * 1024,
    },
  ));
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
}, 600_000);

describe('the built bundles on Node 24', () => {
  it('run on Node 24', () => {
    expect(report.node.split('.')[0]).toBe('24');
  });

  it('publish their metrics as CloudWatch embedded-metric records (the rejected key of the authorizer case)', () => {
    const records = functionOutput
      .split('\n')
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({ ApiKeyRejected: 1, service: 'outreach-public-api' }),
    );
  });

  it.each(cases.map((smoke) => [smoke.name, smoke] as const))(
    '%s loads and answers a minimal event',
    (name, smoke) => {
      const result = report.results.find((candidate) => candidate.name === name)!;
      smoke.expect(result);
    },
  );

  it('cover every function of the stack, one bundle each', () => {
    expect([...new Set(cases.map((smoke) => smoke.entry))].sort()).toEqual([...FUNCTION_ENTRIES].sort());
  });

  it('stay under 1.5 MB each', () => {
    for (const { file } of bundles.values()) expect(statSync(file).size).toBeLessThan(1.5 * 1024 * 1024);
  });
});
