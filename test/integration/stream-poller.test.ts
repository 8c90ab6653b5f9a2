import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { ensureStream, localDynamoDbClient } from '../../infra/local/dynamodb.ts';
import { type StreamPoller, startStreamPoller } from '../../infra/local/streams.ts';
import { dynamodbEndpoint } from '../support/dynamodb-endpoint.ts';

/**
 * The local stack's stream relay (infra/local/streams.ts): idle, it reads the
 * shards once a second, and `wake()` ends that pause; while records come, it
 * reads every 100 ms whatever wakes it. The pauses are the
 * poller's only timers, so with the clock stopped a record can only arrive
 * through a wake: what is asserted is which reads happen, not how long
 * anything takes.
 */

let poller: StreamPoller | undefined;
const client = localDynamoDbClient(dynamodbEndpoint());

beforeAll(async () => {
  await ensureStream(dynamodbEndpoint(), tableName());
});

afterEach(async () => {
  vi.useRealTimers();
  await poller?.stop();
  poller = undefined;
});

/** Starts a poller whose consumer records the keys it is handed. */
async function follow(startAt: 'now' | 'oldest' = 'now'): Promise<{ keys: string[] }> {
  const keys: string[] = [];
  poller = await startStreamPoller(
    client,
    dynamodbEndpoint(),
    tableName(),
    async (event: DynamoDBStreamEvent) => {
      for (const record of event.Records) keys.push(String(record.dynamodb?.Keys?.pk?.S));
      return { batchItemFailures: [] };
    },
    // Idle after one empty read: the pause that follows it is the one a wake ends.
    { startAt, emptyRoundsBeforeIdle: 1 },
  );
  return { keys };
}

const put = (pk: string) =>
  dynamo.send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'stream-poller' } }));

/** Waits on the real clock, whatever the test's timers. */
const realSetTimeout = globalThis.setTimeout;
const realPause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

it('reads the shards at once when woken, and not before its pause ends', async () => {
  const relayed = await follow();
  // Stopped clock from here: once the pause already under way (100 ms, on the real clock) has ended, the
  // poller waits on a pause that never ends by itself.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  await realPause(300);
  await put('POLLER#unannounced');
  await realPause(1500);
  expect(relayed.keys).toEqual([]);
  await put('POLLER#announced');
  poller?.wake();
  // Checked on the real clock: vi.waitFor would move the stopped one on.
  for (let check = 0; check < 400 && relayed.keys.length < 2; check++) await realPause(50);
  expect(relayed.keys).toEqual(['POLLER#unannounced', 'POLLER#announced']);
});

it('keeps the pace while records come: a wake then reads nothing early', async () => {
  const relayed = await follow();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  await realPause(300);
  await put('POLLER#first');
  poller?.wake();
  for (let check = 0; check < 400 && relayed.keys.length < 1; check++) await realPause(50);
  expect(relayed.keys).toEqual(['POLLER#first']);
  // Records came: the pause now is the active one (100 ms, never ending on the stopped clock).
  await put('POLLER#second');
  poller?.wake();
  await realPause(1500);
  expect(relayed.keys).toEqual(['POLLER#first']);
});

it('reads at its own pace without a wake', async () => {
  // From the stream's oldest record: the file's earlier test left records on the same shard.
  const relayed = await follow('oldest');
  await put('POLLER#unannounced');
  // Real timers: the next scheduled read (100 ms, or a second once idle) finds it.
  await vi.waitFor(() => expect(relayed.keys).toContain('POLLER#unannounced'), {
    timeout: 20_000,
    interval: 50,
  });
});
