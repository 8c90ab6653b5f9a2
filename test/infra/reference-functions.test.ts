import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { handlerEntry, type RouteDefinition, routes } from '#definitions/routes.ts';
import { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/**
 * The reference functions as CDK deploys them: bundled by ServiceFunction
 * (the asset function with its route's `packageFiles`), then run on Node 24,
 * the Lambda runtime's major, from the synthesized asset folders. The asset
 * function must serve Swagger UI's files from its own bundle, and both must
 * name the deployment's URL (here the execute-api stage URL).
 */

const run = promisify(execFile);
const HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';
const STAGE_URL = `https://${HOST}/dev`;

interface Output {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}
let results: Map<string, { ok: boolean; output?: Output; error?: string }>;

const event = (resource: string, path: string, pathParameters: Record<string, string> | null) => ({
  httpMethod: 'GET',
  resource,
  path,
  headers: { Host: HOST },
  queryStringParameters: null,
  pathParameters,
  body: null,
  isBase64Encoded: false,
  requestContext: { requestId: 'smoke', stage: 'dev', domainName: HOST },
});

const route = (name: string): RouteDefinition => routes.find((candidate) => candidate.name === name)!;

/** Synthesizes one ServiceFunction per route and returns each one's asset folder. */
function synthesizeAssets(names: string[]): Map<string, string> {
  const outdir = mkdtempSync(join(tmpdir(), 'reference-functions-'));
  const stack = new Stack(new App({ outdir }), 'ReferenceFunctions');
  const ids = names.map((name) => {
    const id = name.replace(/-/g, '');
    const { packageFiles } = route(name);
    new ServiceFunction(stack, id, {
      entry: handlerEntry(route(name)),
      logRemovalPolicy: RemovalPolicy.DESTROY,
      ...(packageFiles && { packageFiles }),
    });
    return id;
  });
  const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function');
  return new Map(
    names.map((name, index) => {
      const [, resource] = Object.entries(functions).find(([logicalId]) =>
        logicalId.startsWith(ids[index]!),
      )!;
      const key = (resource as { Properties: { Code: { S3Key: string } } }).Properties.Code.S3Key;
      return [name, join(outdir, `asset.${key.replace(/\.zip$/, '')}`)];
    }),
  );
}

let assets: Map<string, string>;

beforeAll(async () => {
  assets = synthesizeAssets(['docs-asset', 'openapi']);
  const bundle = (name: string) => join(assets.get(name)!, 'index.mjs');
  const cases = [
    ...[
      'swagger-ui-bundle.js',
      'swagger-ui.css',
      'swagger-initializer.js',
      'reference.css',
      'nothing.js',
    ].map((asset) => ({
      name: asset,
      bundle: bundle('docs-asset'),
      event: event('/docs/{asset}', `/docs/${asset}`, { asset }),
    })),
    { name: 'openapi', bundle: bundle('openapi'), event: event('/openapi.json', '/openapi.json', null) },
  ];
  const folder = mkdtempSync(join(tmpdir(), 'reference-run-'));
  const casesFile = join(folder, 'cases.json');
  const reportFile = join(folder, 'report.json');
  writeFileSync(casesFile, JSON.stringify(cases));
  await run(
    'npx',
    ['-y', 'node@24', resolve(PROJECT_ROOT, 'test/support/run-bundles.mjs'), casesFile, reportFile],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        AWS_REGION: 'eu-west-1',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    node: string;
    results: { name: string; ok: boolean; output?: Output; error?: string }[];
  };
  expect(report.node.split('.')[0]).toBe('24');
  results = new Map(report.results.map((result) => [result.name, result]));
}, 180_000);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const installed = (file: string) => readFileSync(createRequire(import.meta.url).resolve(file), 'utf8');

describe('the reference functions as deployed, on Node 24', () => {
  it('ship exactly the Swagger UI files the asset route names, under node_modules/', () => {
    for (const file of route('docs-asset').packageFiles ?? []) {
      expect(sha256(readFileSync(join(assets.get('docs-asset')!, 'node_modules', file), 'utf8'))).toBe(
        sha256(installed(file)),
      );
    }
    expect(route('docs-asset').packageFiles).toEqual([
      'swagger-ui-dist/swagger-ui-bundle.js',
      'swagger-ui-dist/swagger-ui.css',
    ]);
  });

  it.each([
    ['swagger-ui-bundle.js', 'text/javascript'],
    ['swagger-ui.css', 'text/css'],
  ])('serve %s from the bundle’s own copy', (asset, mediaType) => {
    const { output } = results.get(asset)!;
    expect(output?.statusCode).toBe(200);
    expect(output?.headers['content-type']).toMatch(new RegExp(`^${mediaType}`));
    expect(sha256(output?.body ?? '')).toBe(sha256(installed(`swagger-ui-dist/${asset}`)));
  });

  it('start Swagger UI on the stage’s own document', () => {
    expect(results.get('swagger-initializer.js')?.output?.body).toContain(
      `"url":"${STAGE_URL}/openapi.json"`,
    );
  });

  it('serve the page’s own style sheet over Swagger UI’s', () => {
    const { output } = results.get('reference.css')!;
    expect(output?.statusCode).toBe(200);
    expect(output?.headers['content-type']).toMatch(/^text\/css/);
    expect(output?.body).toContain('.swagger-ui .opblock.opblock-get .opblock-summary-method');
  });

  it('answer 404 {message} for any other asset name', () => {
    const { output } = results.get('nothing.js')!;
    expect(output?.statusCode).toBe(404);
    expect(JSON.parse(output?.body ?? '')).toMatchObject({ message: 'Asset nothing.js not found' });
  });

  it('serve the OpenAPI document naming the API Gateway stage URL as its server', () => {
    const { output } = results.get('openapi')!;
    expect(output?.statusCode).toBe(200);
    const document = JSON.parse(output?.body ?? '') as { openapi: string; servers: { url: string }[] };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.servers.map((server) => server.url)).toEqual([STAGE_URL]);
  });
});
