import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { round } from './load.ts';

/**
 * The machine the figures come from, and the memory of the local stack: this
 * process (gateway, handlers, pollers, and the load generator) and the
 * DynamoDB Local Java child, whose resident size Linux reports in /proc.
 */

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  kernel: string;
  /** 1-minute load average when the bench started: above 0 means something else was running. */
  loadAverageAtStart: number;
}

export function machine(): Machine {
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
    kernel: release(),
    loadAverageAtStart: round(loadavg()[0] ?? 0),
  };
}

const MIB = 2 ** 20;
const mib = (bytes: number) => round(bytes / MIB, 1);

/** The resident set of a process in MiB (`current`) and its peak so far (`peak`), from /proc; null elsewhere. */
function procMemory(pid: number): { current: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { current: round(field('VmRSS') / 1024, 1), peak: round(field('VmHWM') / 1024, 1) };
  } catch {
    return null;
  }
}

/** The Java children of this process (DynamoDB Local). */
export function javaChildren(): number[] {
  const found: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return found;
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may contain spaces, so parse around the parentheses.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm === 'java') found.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

/** One memory sample, in MiB. */
export interface MemorySample {
  atSeconds: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  javaRss: number | null;
}

export function sampleMemory(startedAt: number, javaPid: number | undefined): MemorySample {
  const usage = process.memoryUsage();
  return {
    atSeconds: round((performance.now() - startedAt) / 1000, 1),
    rss: mib(usage.rss),
    heapUsed: mib(usage.heapUsed),
    heapTotal: mib(usage.heapTotal),
    external: mib(usage.external),
    javaRss: javaPid === undefined ? null : (procMemory(javaPid)?.current ?? null),
  };
}

/** Peak resident sizes over the process's life: this process (getrusage) and the Java child (VmHWM). */
export function peakMemory(javaPid: number | undefined) {
  return {
    stackProcessMaxRssMiB: round(process.resourceUsage().maxRSS / 1024, 1),
    dynamoDbLocalPeakRssMiB: javaPid === undefined ? null : (procMemory(javaPid)?.peak ?? null),
  };
}

/** Samples memory every `intervalMs` until stopped. */
export function startSampler(intervalMs: number, javaPid: number | undefined, onSample?: () => void) {
  const startedAt = performance.now();
  const samples: MemorySample[] = [sampleMemory(startedAt, javaPid)];
  const timer = setInterval(() => {
    samples.push(sampleMemory(startedAt, javaPid));
    onSample?.();
  }, intervalMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      samples.push(sampleMemory(startedAt, javaPid));
      return samples;
    },
  };
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection, so heap figures before and after a run compare
 * live objects rather than garbage not yet collected. `npm run bench` runs
 * without --expose-gc, so the flag is set at run time and `gc` taken from a
 * fresh context.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
