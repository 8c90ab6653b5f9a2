import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactGetItemsCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { dynamo } from '#platform/dynamodb-client.ts';
import { CONCURRENCY, type Percentiles, percentiles } from './load.ts';

/** One client for every replay, so its connections stay warm from one endpoint to the next. */
let floorClient: DynamoDBClient | undefined;

/** Closes the replay client's connections. */
export function closeFloor(): void {
  floorClient?.destroy();
  floorClient = undefined;
}

/**
 * The floor of an endpoint: the DynamoDB calls its handler makes, issued
 * directly from the bench process with nothing else around them (no HTTP, no
 * gateway, no handler). API calls are recorded through a middleware on the
 * service's own client (one per connection of the load, so that writes
 * replay different items, as the load writes different items), then replayed
 * with the same concurrency as the load, each worker its own recording: each
 * call starts once the calls that had finished before it started are done,
 * so calls the handler made in parallel run in parallel again.
 */

/** One DynamoDB call the handler made, as sent (marshalled) and when. */
export interface RecordedCall {
  operation: string;
  command: string;
  input: Record<string, unknown>;
  startedAt: number;
  endedAt: number;
}

let recorders = 0;

/**
 * Runs `fn` and records every DynamoDB call made through the service's client
 * meanwhile. The middleware sits after serialization, so inputs are the
 * marshalled requests; SDK retries of a call count once.
 */
export async function recordCalls<T>(fn: () => Promise<T>): Promise<{ result: T; calls: RecordedCall[] }> {
  const name = `bench-recorder-${++recorders}`;
  const calls: RecordedCall[] = [];
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'unknown');
      const call: RecordedCall = {
        operation: command.replace(/Command$/, ''),
        command,
        input: structuredClone((args as { input: Record<string, unknown> }).input),
        startedAt: performance.now(),
        endedAt: Number.POSITIVE_INFINITY,
      };
      calls.push(call);
      try {
        return await next(args);
      } finally {
        call.endedAt = performance.now();
      }
    },
    { step: 'build', name, priority: 'low' },
  );
  try {
    return { result: await fn(), calls };
  } finally {
    dynamo.middlewareStack.remove(name);
  }
}

/** Calls per DynamoDB operation, e.g. `{ BatchGetItem: 1, Query: 1 }`. */
export const byOperation = (calls: RecordedCall[]): Record<string, number> =>
  calls.reduce<Record<string, number>>((counts, call) => {
    counts[call.operation] = (counts[call.operation] ?? 0) + 1;
    return counts;
  }, {});

type LowLevelCommand = new (input: never) => Parameters<DynamoDBClient['send']>[0];

const COMMANDS: Record<string, LowLevelCommand> = {
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  DeleteItemCommand,
  QueryCommand,
  ScanCommand,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
} as unknown as Record<string, LowLevelCommand>;

/** What replaying an endpoint's calls measured. */
export interface FloorResult extends Percentiles {
  seconds: number;
  operations: number;
  /** Replayed writes DynamoDB refused by their condition (a write that already happened): still a round trip. */
  refused: number;
  /** Any other failure. */
  errors: number;
}

/** A replay's figures and its raw latencies. */
export interface FloorRun {
  result: FloorResult;
  samples: number[];
}

/**
 * Replays recorded API calls, each as one operation, over and over with
 * `CONCURRENCY` workers (worker n replays recording n modulo their number)
 * for `durationMs`, and reports the latency of the whole operation.
 */
export async function replayFloor(recordings: RecordedCall[][], durationMs: number): Promise<FloorRun> {
  floorClient ??= new DynamoDBClient({ maxAttempts: 3 });
  const client = floorClient;
  let refused = 0;
  let errors = 0;
  const send = async (call: RecordedCall) => {
    const Command = COMMANDS[call.command];
    if (!Command) throw new Error(`The floor cannot replay ${call.command}`);
    try {
      await client.send(new Command(structuredClone(call.input) as never));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException)
        refused += 1;
      else errors += 1;
    }
  };
  const operations = recordings.map((calls) => {
    // Each call waits for the calls that had ended before it started (what it may have depended on).
    const dependencies = calls.map((call) =>
      calls.flatMap((other, index) => (other.endedAt <= call.startedAt ? [index] : [])),
    );
    return async () => {
      const done: Promise<void>[] = [];
      calls.forEach((call, index) => {
        done[index] = Promise.all(dependencies[index]!.map((dependency) => done[dependency])).then(() =>
          send(call),
        );
      });
      await Promise.all(done);
    };
  });
  // Every recording once, side by side, so the client has its connections open before the clock starts.
  await Promise.all(operations.map((operation) => operation()));
  const times: number[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      const operation = operations[worker % operations.length]!;
      while (performance.now() < deadline) {
        const operationStarted = performance.now();
        await operation();
        times.push(performance.now() - operationStarted);
      }
    }),
  );
  return {
    samples: times,
    result: {
      ...percentiles(times),
      seconds: (performance.now() - started) / 1000,
      operations: times.length,
      refused,
      errors,
    },
  };
}

/** Replays taken in turns (alternating with the load) as one. */
export function mergeFloors(runs: FloorRun[]): FloorResult {
  return {
    ...percentiles(runs.flatMap((run) => run.samples)),
    seconds: Math.round(runs.reduce((total, run) => total + run.result.seconds, 0) * 100) / 100,
    operations: runs.reduce((total, run) => total + run.result.operations, 0),
    refused: runs.reduce((total, run) => total + run.result.refused, 0),
    errors: runs.reduce((total, run) => total + run.result.errors, 0),
  };
}
