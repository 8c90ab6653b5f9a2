import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { localCredentials } from '#admin/local-credentials.ts';
import { serviceAwsClient } from '#platform/configured.ts';
import { LOCAL_REGION } from './dynamodb.ts';

/**
 * The local event source mapping for the table's stream: follows every shard
 * of DynamoDB Local's stream (from the moment it starts, or from the oldest
 * record the stream keeps) and invokes the
 * consumer with Lambda-shaped records, in order per shard. When the consumer
 * reports a failed record, the shard is re-read from that record after a
 * pause, as Lambda retries a stream batch.
 */

const POLL_INTERVAL_MS = 100;
const RETRY_DELAY_MS = 1000;

export type StreamConsumer = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

interface ShardState {
  iterator: string | undefined;
}

/** Starts following the table's stream; `stop()` ends it. */
export async function startStreamPoller(
  dynamodb: DynamoDBClient,
  endpoint: string,
  tableName: string,
  consumer: StreamConsumer,
  onError: (error: unknown) => void = () => undefined,
  startAt: 'now' | 'oldest' = 'now',
): Promise<{ stop(): Promise<void> }> {
  // Without the SDK's logger middleware, as Lambda's own poller has no such cost: it would walk every
  // GetRecords answer through the operation's schema for a log line nobody writes (configured.ts).
  const streams = serviceAwsClient(
    new DynamoDBStreamsClient({ endpoint, region: LOCAL_REGION, credentials: localCredentials() }),
  );
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

  async function poll(shardId: string, state: ShardState) {
    if (!state.iterator) return;
    const { Records = [], NextShardIterator } = await streams.send(
      new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 100 }),
    );
    if (Records.length === 0) {
      state.iterator = NextShardIterator;
      return;
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
      return;
    }
    state.iterator = NextShardIterator;
  }

  await discover();
  let running = true;
  let rounds = 0;
  const loop = (async () => {
    while (running) {
      try {
        if (++rounds % 20 === 0) await discover();
        for (const [shardId, state] of shards) await poll(shardId, state);
      } catch (error) {
        if (running) onError(error);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      streams.destroy();
    },
  };
}
