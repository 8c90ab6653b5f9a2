import { DomainError } from '#domain/errors.ts';
import { getOrganization } from '#domain/organizations.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import type { ProviderEvent } from '#schemas/import.ts';
import type { ForOrganization } from './operation.ts';

/** One line of an events file: the event it holds (validated by `providerEvent`), or why it holds none. */
export type EventLine =
  | { readonly line: number; readonly event: ProviderEvent }
  | { readonly line: number; readonly eventId?: string; readonly invalid: string };

/** A line that was not recorded: not an event (`invalid`), or an event the domain refused (`refused`). */
export type RejectedEvent = { line: number; eventId?: string } & (
  | { invalid: string }
  | { refused: DomainError }
);

/** What recording an events file did. */
export interface EventsReport {
  orgId: number;
  lines: number;
  applied: number;
  duplicate: number;
  /** By line. */
  rejected: RejectedEvent[];
}

/** Events of different assignments recorded at once. */
const EVENT_CONCURRENCY = 16;

/**
 * 1. The organization the operator names must exist (OrganizationNotFound), before a line is read.
 * 2. Record each event through the same operation as live provider traffic, as its line comes: the
 *    events of one assignment in the order of their lines, those of different assignments in
 *    parallel. An event recorded before (by its id) is a duplicate and changes nothing.
 * 3. A line that holds no event, or whose event the domain refuses (an unknown assignment, a
 *    transition its lifecycle does not allow), is rejected and the rest go on; recording a fixed
 *    file again is safe. Any other failure (the table unreachable) stops the run and is thrown.
 * 4. Return the report: lines, applied, duplicates, and the rejected lines in line order.
 *
 * `outreach-admin events record`.
 */
export async function recordEvents(
  input: ForOrganization & { readonly lines: AsyncIterable<EventLine> },
  onProgress: (phase: string, done: number, total: number) => void = () => undefined,
): Promise<EventsReport> {
  const { orgId } = input;
  await getOrganization(orgId);
  const report: EventsReport = { orgId, lines: 0, applied: 0, duplicate: 0, rejected: [] };
  const tails = new Map<number, Promise<void>>();
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let done = 0;
  const record = async (event: ProviderEvent, line: number) => {
    if (failure) return;
    try {
      const { outcome } = await recordProviderEvent(orgId, event);
      if (outcome === 'applied') report.applied += 1;
      else report.duplicate += 1;
    } catch (error) {
      // A domain error is the event's fault (unknown assignment, impossible transition); the rest are ours.
      if (error instanceof DomainError) report.rejected.push({ line, eventId: event.id, refused: error });
      else failure ??= { error };
    }
    onProgress('events', ++done, report.lines);
  };

  for await (const entry of input.lines) {
    if (failure) break;
    report.lines += 1;
    if (!('event' in entry)) {
      report.rejected.push({ ...entry });
      onProgress('events', ++done, report.lines);
      continue;
    }
    const { event, line } = entry;
    const task = (tails.get(event.assignment_id) ?? Promise.resolve()).then(() => record(event, line));
    tails.set(event.assignment_id, task);
    inFlight.add(task);
    void task.then(() => {
      inFlight.delete(task);
      if (tails.get(event.assignment_id) === task) tails.delete(event.assignment_id);
    });
    if (inFlight.size >= EVENT_CONCURRENCY) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure) throw failure.error;
  report.rejected.sort((a, b) => a.line - b.line);
  return report;
}
