import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileLauncher, startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';

/**
 * DynamoDB Local's loopback launcher, compiled once by `npm ci`'s postinstall
 * into node_modules/.cache and run from there by every start.
 */
describe('the DynamoDB Local launcher', () => {
  it('is compiled into a directory named by its source, once', async () => {
    const directory = await compileLauncher();
    expect(existsSync(join(directory, 'LoopbackDynamoDbLocal.class'))).toBe(true);
    expect(basename(directory)).toMatch(/^[0-9a-f]{16}$/);
    expect(await compileLauncher()).toBe(directory);
  });

  it('starts DynamoDB Local from the compiled class, bound to loopback', async () => {
    const directory = await compileLauncher();
    const local = await startDynamoDbLocal();
    try {
      expect(local.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // This process's children (Linux's /proc): the JVM runs the class from the cache, not the source.
      const children = readdirSync('/proc/self/task').flatMap((task) =>
        readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean),
      );
      const port = new URL(local.endpoint).port;
      const jvm = children
        .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '))
        .find((args) => args.includes(`-port ${port} `));
      expect(jvm).toContain(directory);
      expect(jvm).toMatch(/ LoopbackDynamoDbLocal /);
      expect(jvm).not.toContain('LoopbackDynamoDbLocal.java');
    } finally {
      await local.stop();
    }
  });
});
