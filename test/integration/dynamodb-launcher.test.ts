import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DeleteTableCommand,
  type DynamoDBClient,
  ListTablesCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import { localDynamoDbClient, localStreamsClient } from '../../infra/local/dynamodb.ts';
import {
  archiveLauncherClasses,
  compileLauncher,
  type DynamoDbLocal,
  startDynamoDbLocal,
} from '../../infra/local/dynamodb-local.ts';

/**
 * DynamoDB Local's loopback launcher, compiled once by `npm ci`'s postinstall
 * into node_modules/.cache (with the class archive its JVM starts from) and
 * run from there by every start.
 */

/** This process's children (Linux's /proc). */
const childPids = () =>
  readdirSync('/proc/self/task').flatMap((task) =>
    readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean),
  );

/** Starts a DynamoDB Local, with its JVM: the child process the start added, its pid and command line. */
async function startWithJvm(): Promise<{ local: DynamoDbLocal; pid: string; args: string }> {
  const before = new Set(childPids());
  const local = await startDynamoDbLocal();
  const [pid, ...others] = childPids().filter((child) => !before.has(child));
  if (!pid || others.length > 0) throw new Error('Expected one new child process: the JVM');
  return { local, pid, args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') };
}

describe('the DynamoDB Local launcher', () => {
  it('is compiled into a directory named by its source, once', async () => {
    const directory = await compileLauncher();
    expect(existsSync(join(directory, 'LoopbackDynamoDbLocal.class'))).toBe(true);
    expect(existsSync(join(directory, 'dynamodb-local.jar'))).toBe(true);
    expect(basename(directory)).toMatch(/^[0-9a-f]{16}$/);
    expect(await compileLauncher()).toBe(directory);
  });

  it('starts DynamoDB Local from the compiled class, bound to loopback', async () => {
    const directory = await compileLauncher();
    const { local, args } = await startWithJvm();
    try {
      expect(local.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The JVM runs the class from the cache, not the source.
      expect(args).toContain(directory);
      expect(args).toMatch(/ LoopbackDynamoDbLocal /);
      expect(args).not.toContain('LoopbackDynamoDbLocal.java');
    } finally {
      await local.stop();
    }
  });

  it("starts DynamoDB Local's JVM from its class archive, which the JVM accepts", async () => {
    // Recorded by the postinstall; recorded here (a JVM run of a few seconds) when it was not.
    const archive = await archiveLauncherClasses();
    expect(dirname(archive)).toBe(await compileLauncher());
    expect(await archiveLauncherClasses()).toBe(archive);
    const { local, pid, args } = await startWithJvm();
    try {
      expect(args).toContain(`-XX:SharedArchiveFile=${archive} `);
      // A JVM maps an archive only when it matches its build and class path; else it starts without it.
      expect(readFileSync(`/proc/${pid}/maps`, 'utf8')).toContain(archive);
    } finally {
      await local.stop();
    }
  }, 120_000);

  it('binds a port of its own choosing and names it, so that starts at once never collide', async () => {
    // A port probed free and bound a second later (the JVM's start) could be taken meanwhile.
    const locals = await Promise.all([startDynamoDbLocal(), startDynamoDbLocal(), startDynamoDbLocal()]);
    try {
      expect(new Set(locals.map((local) => local.endpoint)).size).toBe(3);
      for (const local of locals) {
        const client = localDynamoDbClient(local.endpoint);
        await expect(client.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: [] });
        client.destroy();
      }
    } finally {
      await Promise.all(locals.map((local) => local.stop()));
    }
  });

  it("indexes DynamoDB Local's stream records, and each table's stream still reads its own, in order", async () => {
    const local = await startDynamoDbLocal();
    const client = localDynamoDbClient(local.endpoint);
    const streams = localStreamsClient(local.endpoint);
    try {
      // Without the index every request's description of a stream scans every record kept so far.
      expect(local.streamRecordsIndexed).toBe(true);
      // A deleted table's records stay in DynamoDB Local's one table of records, beside the next table's.
      await writeThrough(client, 'launcher-first', ['a', 'b', 'c']);
      await client.send(new DeleteTableCommand({ TableName: 'launcher-first' }));
      const streamArn = await writeThrough(client, 'launcher-second', ['d', 'e', 'f', 'g']);
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
      const ShardId = StreamDescription?.Shards?.[0]?.ShardId;
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      const { Records } = await streams.send(new GetRecordsCommand({ ShardIterator }));
      expect(Records?.map((record) => record.dynamodb?.Keys?.pk?.S)).toEqual(['d', 'e', 'f', 'g']);
    } finally {
      client.destroy();
      streams.destroy();
      await local.stop();
    }
  });
});

/** A table with a stream, created and written one item per key; its stream's ARN. */
async function writeThrough(client: DynamoDBClient, TableName: string, keys: string[]): Promise<string> {
  const { TableDescription } = await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    }),
  );
  for (const pk of keys) await client.send(new PutItemCommand({ TableName, Item: { pk: { S: pk } } }));
  const arn = TableDescription?.LatestStreamArn;
  if (!arn) throw new Error(`${TableName} has no stream`);
  return arn;
}
