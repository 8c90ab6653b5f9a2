import { execFile, spawn } from 'node:child_process';
import { main } from '#admin/cli.ts';
import { configuration, useConfiguration } from '#platform/config.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/** What one `outreach-admin` run printed and how it exited. */
export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `outreach-admin` in this process, through the CLI's own `main(argv)`:
 * the same argument parsing, target resolution (the endpoints file in
 * `localDir`), commands, output and exit code as the binary, without booting
 * a Node process with tsx per command. The spawned runs below keep the binary
 * itself tested.
 */
export async function admin(localDir: string, args: string[]): Promise<AdminRun> {
  const before = configuration();
  useConfiguration({ ...before, admin: { ...before.admin, localDir } });
  let stdout = '';
  let stderr = '';
  try {
    const code = await main(args, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
    });
    return { code, stdout, stderr };
  } finally {
    useConfiguration(before);
  }
}

/**
 * Runs `outreach-admin` as an operator does, in its own process
 * (`bin/outreach-admin.mjs`), finding the local stack through the endpoints
 * file in `localDir`. Slow (each run boots Node and tsx): for the few smoke
 * tests of the binary itself.
 */
export function runAdmin(localDir: string, args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/outreach-admin.mjs', ...args],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, OUTREACH_LOCAL_DIR: localDir },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Runs `outreach-admin` in its own process with one of its output pipes
 * closed by the reader before anything is written, as `outreach-admin … |
 * head -0` does: the CLI's writes there fail with EPIPE. Answers the exit
 * code and what the other stream got.
 */
export function runAdminIntoClosedPipe(
  localDir: string,
  args: string[],
  closed: 'stdout' | 'stderr',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; other: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/outreach-admin.mjs', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, OUTREACH_LOCAL_DIR: localDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes away: its end of the pipe is closed, so the child's writes meet no reader.
    child[closed].destroy();
    let other = '';
    const open = closed === 'stdout' ? child.stderr : child.stdout;
    open.setEncoding('utf8').on('data', (text: string) => {
      other += text;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, other }));
  });
}
