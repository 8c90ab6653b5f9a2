import autocannon, { type AutocannonRequest } from 'autocannon';

/**
 * Load generation with autocannon at a fixed concurrency, and the statistics
 * the report shows. Latency percentiles are computed from every response's
 * own time (autocannon's summary has no p95).
 */

/** Connections kept busy at once, for every endpoint and for the floor. */
export const CONCURRENCY = 8;

/** p50, p95 and p99 of a set of latencies, in milliseconds. */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export const round = (value: number, digits = 2): number => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};

/** The middle value (the upper of the two middle ones of an even count). */
export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * API ÷ floor per percentile as the median of the turns' own ratios, each turn's load beside the
 * floor replayed right after it: load from elsewhere on the machine that falls on one turn moves
 * that turn's ratio, not the result.
 */
export function pairedRatio(api: Percentiles[], floor: Percentiles[]): Percentiles {
  const turns = api.slice(0, floor.length).map((load, turn) => ({ load, floor: floor[turn]! }));
  const of = (percentile: keyof Percentiles) =>
    round(median(turns.map((turn) => turn.load[percentile] / turn.floor[percentile])), 1);
  return { p50: of('p50'), p95: of('p95'), p99: of('p99') };
}

/** Nearest-rank percentiles (each is a latency that was observed). */
export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length === 0
      ? Number.NaN
      : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: round(at(50)), p95: round(at(95)), p99: round(at(99)) };
}

/** What one autocannon run measured. */
export interface LoadResult extends Percentiles {
  requests: number;
  requestsPerSecond: number;
  /** Responses whose status was not the one expected. */
  unexpected: number;
  /** Connection errors and timeouts (autocannon counts a timeout as an error). */
  errors: number;
  statuses: Record<string, number>;
  durationSeconds: number;
}

export interface LoadOptions {
  baseUrl: string;
  requests: AutocannonRequest[];
  /** Seconds; or `amount` requests in all. */
  duration?: number;
  amount?: number;
  expectedStatus?: number | ((status: number, requestIndex: number) => boolean);
}

/** A run's figures and its raw latencies (kept out of the report; runs are merged from them). */
export interface LoadRun {
  result: LoadResult;
  samples: number[];
}

/** Runs autocannon with `CONCURRENCY` connections and collects every response's time and status. */
export async function runLoad(options: LoadOptions): Promise<LoadRun> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let unexpected = 0;
  const expected = options.expectedStatus ?? 200;
  // onResponse knows which request of the list answered, so the check can depend on it.
  const requests = options.requests.map((request, index) => ({
    ...request,
    onResponse: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      const ok = typeof expected === 'number' ? status === expected : expected(status, index);
      if (!ok) unexpected += 1;
      request.onResponse?.(status, body, context, headers);
    },
  }));
  const instance = autocannon({
    url: options.baseUrl,
    connections: CONCURRENCY,
    pipelining: 1,
    timeout: 30,
    requests,
    ...(options.amount === undefined ? { duration: options.duration ?? 3 } : { amount: options.amount }),
  });
  instance.on('response', (_client, _status, _bytes, responseTimeMs) => {
    times.push(responseTimeMs);
  });
  const result = await instance;
  return {
    samples: times,
    result: {
      ...percentiles(times),
      requests: times.length,
      requestsPerSecond: round(times.length / Math.max(result.duration, 0.001), 1),
      unexpected,
      errors: result.errors,
      statuses,
      durationSeconds: round(result.duration, 2),
    },
  };
}

/** Runs taken in turns (alternating with the floor) as one. */
export function mergeLoads(runs: LoadRun[]): LoadResult {
  const samples = runs.flatMap((run) => run.samples);
  const durationSeconds = runs.reduce((total, run) => total + run.result.durationSeconds, 0);
  const statuses: Record<string, number> = {};
  for (const run of runs) {
    for (const [status, count] of Object.entries(run.result.statuses))
      statuses[status] = (statuses[status] ?? 0) + count;
  }
  return {
    ...percentiles(samples),
    requests: samples.length,
    requestsPerSecond: round(samples.length / Math.max(durationSeconds, 0.001), 1),
    unexpected: runs.reduce((total, run) => total + run.result.unexpected, 0),
    errors: runs.reduce((total, run) => total + run.result.errors, 0),
    statuses,
    durationSeconds: round(durationSeconds, 2),
  };
}
