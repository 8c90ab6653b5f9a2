import type { DraftAssignment, DraftEvent, DraftMessage, EventInput } from './drafts.ts';

/**
 * Gives assignments and messages their ids in time order, as a live system
 * would have handed them out, then builds the events in time order (ids
 * `demo-00001`, …); events are built last, so the message ids they name are
 * final.
 */
export function numberInTimeOrder(
  history: { assignments: DraftAssignment[]; messages: DraftMessage[]; events: DraftEvent[] },
  firstIds: { assignment: number; message: number },
): EventInput[] {
  let nextAssignmentId = firstIds.assignment;
  for (const assignment of [...history.assignments].sort((a, b) => a.createdAt - b.createdAt))
    assignment.id = nextAssignmentId++;
  const carried = history.events.flatMap((event) => (event.message ? [event.message] : []));
  let nextMessageId = firstIds.message;
  for (const message of [...history.messages, ...carried].sort((a, b) =>
    a.created_at.localeCompare(b.created_at),
  ))
    message.id = nextMessageId++;
  const events = [...history.events].sort((a, b) => a.at - b.at);
  return events.map((event, index) => event.build(`demo-${(index + 1).toString().padStart(5, '0')}`));
}
