import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Configuration } from '#platform/config.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The X-Ray subsegments the service sends itself (shared/platform/xray.ts):
 * a UDP socket plays the daemon, a small HTTP server plays DynamoDB (200, or
 * a throttling 400), the configuration names the daemon, and the trace
 * header is set as Lambda sets it.
 */

const TRACE_ID = '1-5759e988-bd862e3fe1be46a994272793';
const PARENT_ID = '53995c3f42cd8ad8';

let daemon: Socket;
let datagrams: string[] = [];
let dynamodb: Server;
let dynamodbUrl: string;
let throttle = false;

/**
 * The modules under test, imported afresh: the unit tier shares one module graph across its files
 * (vitest.config.ts), and the first invocation a fresh xray module traces is the cold start under test.
 */
let configuration: typeof import('#platform/config.ts')['configuration'];
let useConfiguration: typeof import('#platform/config.ts')['useConfiguration'];
let traceAwsClient: typeof import('#platform/xray.ts')['traceAwsClient'];
let traceInvocation: typeof import('#platform/xray.ts')['traceInvocation'];
let installed: Configuration;

beforeAll(async () => {
  vi.resetModules();
  ({ configuration, useConfiguration } = await import('#platform/config.ts'));
  ({ traceAwsClient, traceInvocation } = await import('#platform/xray.ts'));
  installed = configuration();
  daemon = createSocket('udp4');
  daemon.on('message', (message) => datagrams.push(message.toString()));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  dynamodb = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ-1' };
      if (throttle) {
        response.writeHead(400, headers);
        response.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException' }));
      } else {
        response.writeHead(200, headers);
        response.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => dynamodb.listen(0, '127.0.0.1', resolve));
  dynamodbUrl = `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`;
});

afterAll(async () => {
  daemon.close();
  await new Promise((resolve) => dynamodb.close(resolve));
});

/** Installs the test's configuration with these observability settings. */
const observing = (settings: Partial<Configuration['observability']>) =>
  useConfiguration({ ...installed, observability: { ...installed.observability, ...settings } });

afterEach(() => {
  useConfiguration(installed);
  delete process.env._X_AMZN_TRACE_ID;
  datagrams = [];
  throttle = false;
});

function traced(sampled: boolean) {
  observing({ tracing: true, xrayDaemon: { host: '127.0.0.1', port: daemon.address().port } });
  process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=${sampled ? 1 : 0}`;
}

const client = () =>
  traceAwsClient(
    new DynamoDBClient({
      endpoint: dynamodbUrl,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      maxAttempts: 1,
    }),
  );

const get = (dynamo: DynamoDBClient) =>
  dynamo.send(new GetItemCommand({ TableName: 'outreach', Key: { pk: { S: 'ORG#1' } } }));

/** The datagrams received so far, as [header, document]. */
async function received(count: number): Promise<[unknown, Record<string, unknown>][]> {
  await waitFor(() => datagrams.length >= count, { what: `${count} datagrams at the daemon` });
  return datagrams.map((datagram) => {
    const [header, body] = datagram.split('\n');
    return [JSON.parse(header!), JSON.parse(body!)];
  });
}

describe('X-Ray subsegments', () => {
  it('annotates the handler subsegment with the cold start, once, and a fault when it throws', async () => {
    traced(true);
    traceInvocation('outreach-public-api')(false);
    traceInvocation('outreach-public-api')(true);
    const documents = (await received(2)).map(([, document]) => document);
    // Datagrams may arrive in any order.
    const cold = documents.find((document) => (document.annotations as { ColdStart: boolean }).ColdStart);
    const warm = documents.find((document) => document !== cold);
    expect(cold).toMatchObject({
      name: '## handler',
      parent_id: PARENT_ID,
      annotations: { ColdStart: true, Service: 'outreach-public-api' },
    });
    expect(cold).not.toHaveProperty('fault');
    expect(warm).toMatchObject({ annotations: { ColdStart: false }, fault: true });
  });

  it('sends an aws subsegment per SDK call of a sampled invocation, under the function segment', async () => {
    traced(true);
    await get(client());
    const [[header, subsegment]] = (await received(1)) as [[unknown, Record<string, unknown>]];
    expect(header).toEqual({ format: 'json', version: 1 });
    expect(subsegment).toMatchObject({
      type: 'subsegment',
      trace_id: TRACE_ID,
      parent_id: PARENT_ID,
      name: 'DynamoDB',
      namespace: 'aws',
      aws: { operation: 'GetItem', region: 'eu-west-1', request_id: 'REQ-1', table_name: 'outreach' },
      http: { response: { status: 200 } },
    });
    expect(subsegment.id).toMatch(/^[0-9a-f]{16}$/);
    expect(subsegment.end_time as number).toBeGreaterThanOrEqual(subsegment.start_time as number);
    expect(subsegment).not.toHaveProperty('error');
    // Contents are never recorded: no key, no item.
    expect(JSON.stringify(subsegment)).not.toContain('ORG#1');
  });

  it('marks a throttled call as an error with throttle, and rethrows it', async () => {
    traced(true);
    throttle = true;
    await expect(get(client())).rejects.toMatchObject({ name: 'ThrottlingException' });
    const [[, subsegment]] = (await received(1)) as [[unknown, Record<string, unknown>]];
    expect(subsegment).toMatchObject({
      error: true,
      fault: false,
      throttle: true,
      http: { response: { status: 400 } },
    });
  });

  it('sends nothing when the invocation is not sampled, there is no daemon, or tracing is off', async () => {
    traced(false);
    await get(client());
    observing({ xrayDaemon: undefined });
    process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=1`;
    await get(client());
    traced(true);
    observing({ tracing: false, xrayDaemon: { host: '127.0.0.1', port: daemon.address().port } });
    await get(client());
    traceInvocation('svc')(false);
    traced(true);
    // A traced call after them is the first datagram to arrive: the ones before sent nothing.
    await get(client());
    const all = await received(1);
    expect(all).toHaveLength(1);
    expect(all[0]![1]).toMatchObject({ name: 'DynamoDB' });
  });
});
