import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactGetItemsCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  QueryCommand as DocumentQueryCommand,
  ScanCommand as DocumentScanCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { configuration } from '#platform/config.ts';
import { createDynamoClient, dynamo } from '#platform/dynamodb-client.ts';
import { CONCURRENCY, type Percentiles, percentiles } from './load.ts';

/** One client for every replay, so its connections stay warm from one endpoint to the next. */
let floorClient: DynamoDBDocumentClient | undefined;

/**
 * The replay client: a document client built as the service builds its own
 * (`createDynamoClient`: region, credentials and endpoint from the
 * configuration, so DynamoDB Local's on the local stack; the same marshalling
 * options). The calls are replayed through the library the service calls
 * DynamoDB with, so the floor holds all of the DynamoDB work, marshalling
 * included, as the bundles' floor does. Built without the configuration, the
 * SDK's own resolution found no DynamoDB to call and every replayed call failed.
 */
function replayClient(): DynamoDBDocumentClient {
  floorClient ??= createDynamoClient(configuration());
  return floorClient;
}

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

/** One DynamoDB call the handler made, as sent and when. */
export interface RecordedCall {
  operation: string;
  /** The low-level command sent, e.g. `GetItemCommand`. */
  command: string;
  /** Its input, marshalled. */
  input: Record<string, unknown>;
  /** The input the handler gave its document client, when it sent the call through one (as the stores do). */
  document?: Record<string, unknown>;
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
  // The document client's input, seen before its marshalling (a serialize-step middleware), by call.
  const documentInputs = new WeakMap<object, Record<string, unknown>>();
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      documentInputs.set(context, structuredClone((args as { input: Record<string, unknown> }).input));
      return next(args);
    },
    { step: 'initialize', name: `${name}-document`, priority: 'high' },
  );
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'unknown');
      const call: RecordedCall = {
        operation: command.replace(/Command$/, ''),
        command,
        input: structuredClone((args as { input: Record<string, unknown> }).input),
        // The document client marks the calls it marshalled with this feature (@aws-sdk/lib-dynamodb).
        ...(sentThroughDocumentClient(context) && { document: documentInputs.get(context) }),
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
    dynamo.middlewareStack.remove(`${name}-document`);
    dynamo.middlewareStack.remove(name);
  }
}

/** Whether the document client marshalled this call: it sets the `DDB_MAPPER` feature on the call's context. */
function sentThroughDocumentClient(context: object): boolean {
  const features = (context as { __aws_sdk_context?: { features?: Record<string, string> } })
    .__aws_sdk_context?.features;
  return features?.DDB_MAPPER !== undefined;
}

export const byOperation = (calls: RecordedCall[]): Record<string, number> =>
  calls.reduce<Record<string, number>>((counts, call) => {
    counts[call.operation] = (counts[call.operation] ?? 0) + 1;
    return counts;
  }, {});

type ReplayCommand = new (input: never) => Parameters<DynamoDBDocumentClient['send']>[0];

/** The low-level commands, for a call the handler sent without the document client. */
const COMMANDS = {
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
} as unknown as Record<string, ReplayCommand>;

/** The document client's command for each low-level one it sends. */
const DOCUMENT_COMMANDS = {
  GetItemCommand: GetCommand,
  PutItemCommand: PutCommand,
  UpdateItemCommand: UpdateCommand,
  DeleteItemCommand: DeleteCommand,
  QueryCommand: DocumentQueryCommand,
  ScanCommand: DocumentScanCommand,
  BatchGetItemCommand: BatchGetCommand,
  BatchWriteItemCommand: BatchWriteCommand,
  TransactGetItemsCommand: TransactGetCommand,
  TransactWriteItemsCommand: TransactWriteCommand,
} as unknown as Record<string, ReplayCommand>;

/** What replaying an endpoint's calls measured. */
export interface FloorResult extends Percentiles {
  seconds: number;
  operations: number;
  /** DynamoDB calls sent (an operation is all of a recording's calls). */
  calls: number;
  /** Replayed writes DynamoDB refused by their condition (a write that already happened): still a round trip. */
  refused: number;
  /** Any other failure: the floor's figures are then no floor (bench/failures.ts). */
  errors: number;
  /** The first failure's name and message, to say why. */
  firstError?: string;
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
  const client = replayClient();
  let sent = 0;
  let refused = 0;
  let errors = 0;
  let firstError: string | undefined;
  const send = async (call: RecordedCall) => {
    const Command = (call.document ? DOCUMENT_COMMANDS : COMMANDS)[call.command];
    if (!Command) throw new Error(`The floor cannot replay ${call.command}`);
    sent += 1;
    try {
      await client.send(new Command(structuredClone(call.document ?? call.input) as never));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException)
        refused += 1;
      else {
        errors += 1;
        firstError ??= `${call.operation}: ${(error as Error).name}: ${(error as Error).message}`.slice(
          0,
          200,
        );
      }
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
      calls: sent,
      refused,
      errors,
      ...(firstError !== undefined && { firstError }),
    },
  };
}

/** Replays taken in turns (alternating with the load) as one. */
export function mergeFloors(runs: FloorRun[]): FloorResult {
  return {
    ...percentiles(runs.flatMap((run) => run.samples)),
    seconds: Math.round(runs.reduce((total, run) => total + run.result.seconds, 0) * 100) / 100,
    operations: runs.reduce((total, run) => total + run.result.operations, 0),
    calls: runs.reduce((total, run) => total + run.result.calls, 0),
    refused: runs.reduce((total, run) => total + run.result.refused, 0),
    errors: runs.reduce((total, run) => total + run.result.errors, 0),
    ...firstOf(runs.map((run) => run.result.firstError)),
  };
}

const firstOf = (errors: (string | undefined)[]) => {
  const firstError = errors.find((error) => error !== undefined);
  return firstError === undefined ? {} : { firstError };
};
