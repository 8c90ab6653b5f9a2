import { execFile } from 'node:child_process';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/** What one `outreach-admin` run printed and how it exited. */
export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `outreach-admin` as an operator does, in its own process, finding the
 * local stack through the endpoints file in `localDir`.
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
