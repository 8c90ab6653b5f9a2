import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { PROVIDERS } from '#schemas/import.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';
import { exitOf, startStackProcess, stopStartedStackProcesses } from '../support/stack-process.ts';
import { waitFor } from '../support/wait.ts';

/**
 * `npm start` as a user runs it: a separate process with its own DynamoDB Local,
 * the demo seed, the endpoints file for `outreach-admin`, and a clean shutdown.
 */

const run = promisify(execFile);

/** The DynamoDB Local (java) children of a process. */
async function javaChildren(pid: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)]).catch(() => ({
    stdout: '',
  }));
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, command]) => command === 'java')
    .map(([childPid]) => Number(childPid));
}

/** The local addresses of the TCP sockets the processes listen on, from /proc (ss's own source). */
function listeningAddresses(pids: number[]): string[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const target = (() => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          return '';
        }
      })();
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    }
  }
  const LISTEN = '0A';
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== LISTEN || !inodes.has(fields[9] ?? '')) continue;
      const [hex = '', port = ''] = fields[1]!.split(':');
      addresses.push(`${decodeAddress(hex)}:${Number.parseInt(port, 16)}`);
    }
  }
  return addresses;
}

/** An address as /proc/net/tcp{,6} writes it: 32-bit words in host (little-endian) byte order. */
function decodeAddress(hex: string): string {
  const bytes = (hex.match(/.{8}/g) ?? []).flatMap((word) =>
    (word.match(/../g) ?? []).reverse().map((byte) => Number.parseInt(byte, 16)),
  );
  if (bytes.length === 4) return bytes.join('.');
  const mapped = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2)
    groups.push(((bytes[index]! << 8) | bytes[index + 1]!).toString(16));
  return groups.join(':');
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(() => stopStartedStackProcesses());

// Each test starts the whole stack as a user does (DynamoDB Local, the emulators, the demo data set linked
// to the emulators' campaigns), once or twice: on a loaded machine that takes minutes, not the default minute.
describe('npm start', { timeout: 300_000 }, () => {
  it('prints the base URL and a working demo API key, serves the CLI, and stops everything on SIGTERM; a second start on its port says in one line that the port is busy and leaves it serving', async () => {
    const localDir = mkdtempSync(join(tmpdir(), 'outreach-local-'));
    const stack = await startStackProcess(['--port', '0'], { OUTREACH_LOCAL_DIR: localDir });
    const apiKey = /API key:\s+(\S+)/.exec(stack.output())![1]!;
    const response = await fetch(`${stack.baseUrl}/auth`, { headers: { 'x-api-key': apiKey } });
    expect(await response.json()).toEqual({ signed_in: true });

    // The banner lists each provider emulator's URL (README "Watch the loop"), and each answers there:
    // its control API knows the demo organization's workspace.
    const emulatorUrls = await waitFor(
      () => {
        const urls = PROVIDERS.map(
          (provider) => new RegExp(`^\\s+${provider}\\s+(http://\\S+)$`, 'm').exec(stack.output())?.[1],
        );
        return urls.every((url) => url !== undefined) ? (urls as string[]) : false;
      },
      { what: 'the emulators in the banner' },
    );
    expect(new Set(emulatorUrls.map((url) => new URL(url).origin)).size).toBe(PROVIDERS.length);
    for (const [index, provider] of PROVIDERS.entries()) {
      const control = new URL(`/_emulator/leads?apiKey=demo-${provider}-api-key`, emulatorUrls[index]);
      const leads = await fetch(control);
      expect(leads.status, `${provider} at ${control}`).toBe(200);
      expect(await leads.json()).toMatchObject({ leads: expect.any(Array) });
    }

    // `npm start` again from the same folder, on the running stack's port: it fails before it writes
    // anything, and the running stack's endpoints file stays as it was (the CLI below still reaches it).
    const endpointsFile = join(localDir, 'endpoints.json');
    const endpoints = readFileSync(endpointsFile, 'utf8');
    const port = new URL(stack.baseUrl).port;
    const busy = await run(process.execPath, ['--import', 'tsx', 'infra/local/start.ts', '--port', port], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, OUTREACH_LOCAL_DIR: localDir },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(busy).toMatchObject({ code: 1 });
    expect((busy as { stderr: string }).stderr.trim()).toBe(
      `Port ${port} is already in use: stop the other process or start with --port N (PORT=N).`,
    );
    expect(readFileSync(endpointsFile, 'utf8')).toBe(endpoints);

    const cli = await run(
      process.execPath,
      ['bin/outreach-admin.mjs', 'org', 'create', '--name', 'Acme', '--json'],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, OUTREACH_LOCAL_DIR: localDir },
      },
    );
    const created = JSON.parse(cli.stdout) as { orgId: number; apiKey: string };
    expect(created.apiKey.startsWith(`${created.orgId}.`)).toBe(true);
    const second = await fetch(`${stack.baseUrl}/auth`, { headers: { 'x-api-key': created.apiKey } });
    expect(second.status).toBe(200);

    const javaPids = await javaChildren(stack.child.pid!);
    expect(javaPids).toHaveLength(1);
    stack.child.kill('SIGTERM');
    expect(await exitOf(stack.child)).toBe(0);
    for (const pid of javaPids) expect(alive(pid)).toBe(false);
  });

  it('listens on loopback only, every part of it, and leaves no DynamoDB Local behind when it is killed', async () => {
    const stack = await startStackProcess(['--port', '0'], {
      OUTREACH_LOCAL_DIR: mkdtempSync(join(tmpdir(), 'outreach-local-')),
    });
    const pid = stack.child.pid!;
    const javaPids = await javaChildren(pid);
    expect(javaPids).toHaveLength(1);

    const listening = listeningAddresses([pid, ...javaPids]);
    // The gateway, DynamoDB Local, fauxqs and the SMTP sink at least.
    expect(listening.length).toBeGreaterThanOrEqual(4);
    for (const address of listening) expect(address).toMatch(/^(127\.0\.0\.1|::ffff:127\.0\.0\.1):\d+$/);

    // A crash (here SIGKILL, which no handler sees) takes DynamoDB Local down with the stack.
    stack.child.kill('SIGKILL');
    await exitOf(stack.child);
    await waitFor(() => javaPids.every((javaPid) => !alive(javaPid)), { what: 'DynamoDB Local to exit' });
  });
  // A restart on a data directory keeping every write is restart.test.ts's (the same flags, every read compared).
});

describe('outreach-admin', () => {
  it('prints usage on stdout with exit 0 for --help, and on stderr with exit 2 for an unknown command or a bad flag', async () => {
    const help = await run(process.execPath, ['bin/outreach-admin.mjs', '--help'], { cwd: PROJECT_ROOT });
    expect(help.stderr).toBe('');
    expect(help.stdout).toMatch(/^Usage: outreach-admin /);
    for (const args of [['frobnicate'], ['key', 'list', '--org', '1', '--bogus']]) {
      const result = await run(process.execPath, ['bin/outreach-admin.mjs', ...args], {
        cwd: PROJECT_ROOT,
      }).catch((error: { code: number; stderr: string }) => error);
      expect(result).toMatchObject({ code: 2 });
      expect((result as { stderr: string }).stderr).toContain('Usage: outreach-admin');
    }
  });

  it('says how to start a stack when none is running', async () => {
    const result = await run(process.execPath, ['bin/outreach-admin.mjs', 'key', 'list', '--org', '1'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, OUTREACH_LOCAL_DIR: mkdtempSync(join(tmpdir(), 'outreach-none-')) },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(result).toMatchObject({ code: 1 });
    expect((result as { stderr: string }).stderr).toMatch(/npm start/);
  });
});
