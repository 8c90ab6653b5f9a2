import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

/** The JVM of a DynamoDB Local this process started (Linux's /proc): its pid and command line. */
function jvmOf(local: DynamoDbLocal): { pid: string; args: string } {
  const children = readdirSync('/proc/self/task').flatMap((task) =>
    readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean),
  );
  const port = new URL(local.endpoint).port;
  const jvm = children
    .map((pid) => ({ pid, args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') }))
    .find(({ args }) => args.includes(`-port ${port} `));
  if (!jvm) throw new Error(`No child process serves port ${port}`);
  return jvm;
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
    const local = await startDynamoDbLocal();
    try {
      expect(local.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The JVM runs the class from the cache, not the source.
      const { args } = jvmOf(local);
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
    const local = await startDynamoDbLocal();
    try {
      const { pid, args } = jvmOf(local);
      expect(args).toContain(`-XX:SharedArchiveFile=${archive} `);
      // A JVM maps an archive only when it matches its build and class path; else it starts without it.
      expect(readFileSync(`/proc/${pid}/maps`, 'utf8')).toContain(archive);
    } finally {
      await local.stop();
    }
  }, 120_000);
});
