import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { localStreamsClient } from './dynamodb.ts';

/**
 * The local event source mapping for the table's stream: follows every shard
 * of DynamoDB Local's stream (from the moment it starts, or from the oldest
 * record the stream keeps) and invokes the
 * consumer with Lambda-shaped records, in order per shard. When the consumer
 * reports a failed record, the shard is re-read from that record after a
 * pause, as Lambda retries a stream batch.
 */

/**
 * How often the shards are read: every 100 ms while records come, every
 * second once none came for a second. An idle stack (a test waiting on
 * something else, `npm start` between requests) otherwise spent a tenth of a
 * core on empty GetRecords calls, between this process and DynamoDB Local.
 * A write of the stack's own handlers ends an idle pause at once (`wake()`,
 * `wakeOnServiceWrites` below), so what a request causes after a quiet
 * second is not held back by the idle pace; while records come, wakes change
 * nothing, so the relay still takes what 100 ms of writes left in one batch
 * instead of one read (and one relay invocation) per write. A write from another process
 * (`outreach-admin` against the local stack) is seen within a second.
 */
const POLL_INTERVAL_MS = 100;
const IDLE_POLL_INTERVAL_MS = 1000;
const EMPTY_ROUNDS_BEFORE_IDLE = 10;
const RETRY_DELAY_MS = 1000;

export type StreamConsumer = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

interface ShardState {
  iterator: string | undefined;
}

/** A running stream poller: `wake()` ends an idle pause, `stop()` ends it. */
export interface StreamPoller {
  wake(): void;
  stop(): Promise<void>;
}

export interface StreamPollerOptions {
  onError?: (error: unknown) => void;
  /** Where the shards present at the start are read from (shards that appear later: their beginning). */
  startAt?: 'now' | 'oldest';
  /** Empty rounds after which the pace is the idle one (default 10: a second at 100 ms). */
  emptyRoundsBeforeIdle?: number;
}

/** Starts following the table's stream. */
export async function startStreamPoller(
  dynamodb: DynamoDBClient,
  endpoint: string,
  tableName: string,
  consumer: StreamConsumer,
  {
    onError = () => undefined,
    startAt = 'now',
    emptyRoundsBeforeIdle = EMPTY_ROUNDS_BEFORE_IDLE,
  }: StreamPollerOptions = {},
): Promise<StreamPoller> {
  const streams = localStreamsClient(endpoint);
  const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${tableName} has no stream`);
  const shards = new Map<string, ShardState>();
  let firstDiscovery = true;

  async function discover() {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      // Shards present at start are followed from `startAt`; shards that appear later from their beginning.
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: firstDiscovery && startAt === 'now' ? 'LATEST' : 'TRIM_HORIZON',
        }),
      );
      shards.set(shard.ShardId, { iterator: ShardIterator });
    }
    firstDiscovery = false;
  }

  /** Reads one shard; whether it had records. */
  async function poll(shardId: string, state: ShardState): Promise<boolean> {
    if (!state.iterator) return false;
    const { Records = [], NextShardIterator } = await streams.send(
      new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 100 }),
    );
    if (Records.length === 0) {
      state.iterator = NextShardIterator;
      return false;
    }
    const response = await consumer({ Records: Records as unknown as DynamoDBRecord[] });
    const failure = response.batchItemFailures[0]?.itemIdentifier;
    if (failure) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ShardIteratorType: 'AT_SEQUENCE_NUMBER',
          SequenceNumber: failure,
        }),
      );
      state.iterator = ShardIterator;
      return true;
    }
    state.iterator = NextShardIterator;
    return true;
  }

  await discover();
  let running = true;
  let rounds = 0;
  let emptyRounds = 0;
  // Whether the pause under way is the idle one, which a wake ends.
  let idlePause = false;
  let endPause: () => void = () => undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (running) {
      try {
        if (++rounds % 20 === 0) await discover();
        let records = false;
        for (const [shardId, state] of shards) records = (await poll(shardId, state)) || records;
        emptyRounds = records ? 0 : emptyRounds + 1;
      } catch (error) {
        if (running) onError(error);
      }
      if (!running) break;
      idlePause = emptyRounds >= emptyRoundsBeforeIdle;
      await pause(idlePause ? IDLE_POLL_INTERVAL_MS : POLL_INTERVAL_MS);
      idlePause = false;
    }
  })();
  return {
    wake() {
      emptyRounds = 0;
      if (idlePause) endPause();
    },
    async stop() {
      running = false;
      endPause();
      await loop;
      streams.destroy();
    },
  };
}

/** The service's DynamoDB writes, by the command names its client's middleware sees. */
const WRITE_COMMAND = /^(Put|Update|Delete|TransactWrite|BatchWrite)(Item)?Command$/;
let relayWakers = 0;

/**
 * Wakes the stream relay after each write made through the service's
 * DynamoDB client in this process (the stack's handlers, and a test's own
 * writes), so that the relay's idle pace (above) does not hold back what
 * a request causes. Returns what removes the middleware again.
 */
export async function wakeOnServiceWrites(poller: StreamPoller): Promise<() => void> {
  const { dynamo } = await import('#platform/dynamodb-client.ts');
  const name = `local-stream-relay-wake-${++relayWakers}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } finally {
        if (WRITE_COMMAND.test(String(context.commandName))) poller.wake();
      }
    },
    { step: 'initialize', name },
  );
  return () => {
    dynamo.middlewareStack.remove(name);
  };
}
