import { vi } from 'vitest';
import type { LogLevel } from '#definitions/log-levels.ts';
import { configuration, useConfiguration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import { lambdaHandler, metrics } from '#platform/observability.ts';

/** An embedded-metric record as Powertools Metrics serializes it. */
export type MetricRecord = Record<string, unknown> & { _aws: { CloudWatchMetrics: unknown[] } };

/**
 * The embedded-metric records the invocations `fn` makes write, with metrics
 * turned on in the configuration for its time. Powertools itself stays off
 * (the tests' POWERTOOLS_METRICS_DISABLED), so its publishing is observed
 * where it serializes the invocation's metrics: the record it would print.
 */
export async function metricRecordsOf(fn: () => Promise<unknown>): Promise<MetricRecord[]> {
  const installed = configuration();
  // The counts of work done outside an invocation (with metrics off, none) are dropped by the next one's end.
  await lambdaHandler(async (_event: undefined) => undefined)(undefined);
  useConfiguration({ ...installed, observability: { ...installed.observability, metrics: true } });
  const records: MetricRecord[] = [];
  const publish = vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => {
    if (metrics.hasStoredMetrics()) records.push(metrics.serializeMetrics() as MetricRecord);
    metrics.clearMetrics();
    return metrics;
  });
  try {
    await fn();
  } finally {
    publish.mockRestore();
    useConfiguration(installed);
  }
  return records;
}

/**
 * Has the logger write at `level` until the test's mocks are restored (it
 * starts at the tests' SILENT). Powertools puts the logger back to its
 * initial level at each warm invocation (where it may sample DEBUG), so that
 * step is held off while the test logs at its own level.
 */
export function loggingAt(level: LogLevel): void {
  logger.setLogLevel(level);
  vi.spyOn(logger, 'refreshSampleRateCalculation').mockImplementation(() => undefined);
}

/** The JSON lines written (stdout and stderr: Powertools writes warnings and errors to the latter) while `fn` runs. */
export async function logRecordsOf(fn: () => unknown): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await fn();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}
