import type { BundleFigures, FirstRequestFigures } from './bundles.ts';
import type { DeliveryThroughput } from './deliveries.ts';
import type { EnrollmentRow } from './enrollment.ts';
import type { FloorResult } from './floor.ts';
import type { HotItemsReport } from './hot-items.ts';
import type { LoadResult } from './load.ts';

/**
 * What makes a measurement of the bench a failed one. A figure is only worth
 * printing if everything it was measured from did what it was meant to: every
 * response had its expected status, nothing timed out, every replayed
 * DynamoDB call reached DynamoDB, every event and enrollment went through. A
 * failed measurement is printed as `failed: <why>` in place of its figures
 * (never a number), listed at the top of the report, and makes `npm run bench`
 * exit non-zero once the report is written. These are pure functions of the
 * measured data, so the rules are tested without running the bench.
 */

/** A section whose measurement threw: what it threw, in place of its figures. */
export interface SectionFailure {
  failed: string;
}

export const isFailure = (value: unknown): value is SectionFailure =>
  typeof value === 'object' && value !== null && 'failed' in value;

/** A thrown value as one line of the report. */
export const reasonOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);

/** Runs one section's measurement; what it throws becomes the section's failure, and the bench goes on. */
export async function attempt<T>(measure: () => Promise<T>): Promise<T | SectionFailure> {
  try {
    return await measure();
  } catch (error) {
    return { failed: reasonOf(error) };
  }
}

/** How a cell shows a failed measurement. */
export const failedCell = (why: string) => `**failed**: ${why}`;

const join = (reasons: (string | false | undefined)[]) => reasons.filter(Boolean).join('; ') || undefined;

/** Why a load's figures are not the endpoint's: no response, connection errors or timeouts, unexpected statuses. */
export function loadFailure(load: LoadResult): string | undefined {
  return join([
    load.requests === 0 && 'no response',
    load.errors > 0 && `${load.errors} connection errors or timeouts`,
    load.unexpected > 0 && `${load.unexpected} unexpected statuses (${JSON.stringify(load.statuses)})`,
  ]);
}

/** Why a floor replay's figures are no floor: a call that failed, or nothing replayed. */
export function floorFailure(floor: FloorResult | null, recordedCalls: number): string | undefined {
  if (floor === null) return recordedCalls > 0 ? 'not replayed' : undefined;
  return join([
    floor.operations === 0 && 'no operation completed',
    floor.errors > 0 &&
      `${floor.errors} of ${floor.calls} DynamoDB calls failed${floor.firstError ? ` (${floor.firstError})` : ''}`,
  ]);
}

/** The parts of an endpoint row the failure rules read. */
export interface MeasuredEndpoint {
  endpoint: string;
  api: LoadResult | null;
  floor: FloorResult | null;
  dynamodb: { requests: number };
  /** What the endpoint's measurement threw, if it did. */
  error?: string;
}

/** An endpoint's failures: the API's load and the floor's replay, each on its own. */
export function endpointFailures(row: MeasuredEndpoint): { api?: string; floor?: string } {
  const api = row.error ?? (row.api ? loadFailure(row.api) : 'not measured');
  const floor = row.error ? undefined : floorFailure(row.floor, row.dynamodb.requests);
  return { ...(api && { api }), ...(floor && { floor }) };
}

export function deliveriesFailure(hooks: DeliveryThroughput): string | undefined {
  const expected = hooks.events * hooks.subscriptions;
  return hooks.deliveries === expected ? undefined : `${hooks.deliveries} of ${expected} deliveries received`;
}

export function enrollmentFailure(row: EnrollmentRow): string | undefined {
  const refused = Object.entries(row.statuses).filter(([status]) => !/^2\d\d$/.test(status));
  return join([
    row.failed > 0 && `${row.failed} of ${row.contacts} enrollments failed`,
    row.enrolled + row.failed !== row.contacts && `${row.enrolled} of ${row.contacts} enrolled`,
    refused.length > 0 && `the emulator answered ${JSON.stringify(Object.fromEntries(refused))}`,
  ]);
}

export function hotItemsFailure(report: HotItemsReport): string | undefined {
  const failed = Object.values(report.outcomes.failed).reduce((sum, count) => sum + count, 0);
  const answered = report.outcomes.applied + report.outcomes.duplicate + failed;
  return join([
    failed > 0 &&
      `${failed} of ${report.settings.events} events failed (${JSON.stringify(report.outcomes.failed)})`,
    answered !== report.settings.events && `${answered} of ${report.settings.events} events answered`,
  ]);
}

/** A raw operation answered, but did it do all of its work? */
export function rawOperationFailure(result: Record<string, unknown>, contacts: number): string | undefined {
  const summary = result.summary as { total?: number } | undefined;
  const done = summary ? summary.total : Number(result.created) + Number(result.skipped);
  return done === contacts ? undefined : `${done} of ${contacts} contacts handled`;
}

export function bundleFailure(bundle: BundleFigures): string | undefined {
  return bundle.error;
}

/** A first request that threw or answered an error measured another path than the function's work. */
export function firstRequestFailure(
  row: Pick<FirstRequestFigures, 'error' | 'outcome' | 'detail'>,
): string | undefined {
  if (row.error) return row.error;
  if (row.outcome === 'ok' || (/^\d{3}$/.test(row.outcome) && Number(row.outcome) < 400)) return undefined;
  const what = /^\d{3}$/.test(row.outcome) ? `answered ${row.outcome}` : row.outcome;
  return row.detail ? `${what}: ${row.detail}` : what;
}

/** The exit code of `npm run bench`: non-zero when any measurement failed. */
export const exitCodeOf = (failures: readonly string[]): number => (failures.length > 0 ? 1 : 0);
