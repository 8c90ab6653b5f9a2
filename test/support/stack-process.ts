import { type ChildProcess, spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/** `npm start` running in a process of its own, with its own DynamoDB Local. */
export interface StackProcess {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** The API's base URL it printed (`…/public/v1`). */
  baseUrl: string;
  /** The demo organization's API key it printed (a fresh store's; keys of kept data are not shown again). */
  apiKey?: string;
}

const started: ChildProcess[] = [];

/**
 * Starts `npm start` (infra/local/start.ts) as a user does, in its own
 * process, with a small demo (four accounts: the seed is not what these tests
 * are about); resolves once it printed its base URL and key, and rejects if
 * it exits first.
 */
export function startStackProcess(args: string[], env: Record<string, string> = {}): Promise<StackProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, OUTREACH_DEMO_ACCOUNTS: '4', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const baseUrl = /Base URL:\s+(\S+)/.exec(output)?.[1];
      const apiKey = /API key:\s+(\S+)/.exec(output)?.[1];
      if (baseUrl && /(Try|New key):/.test(output)) resolve({ child, output: () => output, baseUrl, apiKey });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

/** The exit code of a stack process, once it has exited. */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Stops a stack process the way Ctrl-C does (SIGTERM) and returns its exit code. */
export function stopStackProcess(child: ChildProcess): Promise<number | null> {
  const exited = exitOf(child);
  child.kill('SIGTERM');
  return exited;
}

/**
 * Stops every stack process a test left running (a failed one), the way Ctrl-C
 * does so that its DynamoDB Local goes too; after a grace period (cleanup
 * only, no assertion waits on it), outright.
 */
export async function stopStartedStackProcesses(): Promise<void> {
  for (const child of started.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = exitOf(child);
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
