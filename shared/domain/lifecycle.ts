import { ASSIGNMENT_STATUSES, type AssignmentStatus } from '#definitions/item-fields.ts';
import type { ProviderEventType } from '#schemas/import.ts';

/**
 * The assignment lifecycle (docs/decisions.md, Assignments) as data: which statuses each
 * provider event may arrive in, the status it leads to, and the timestamp it
 * sets. `replied`, `bounced` and `unsubscribed` are terminal: nothing leads out
 * of them (a further reply to a replied assignment is recorded as a message and
 * the status stays `replied`).
 */

export type TimestampField = 'approvedAt' | 'sequencedAt' | 'completedAt' | 'bouncedAt' | 'unsubscribedAt';

export interface Transition {
  from: readonly AssignmentStatus[];
  /** The new status; absent when the event leaves the status as it is. */
  to?: AssignmentStatus;
  stamp?: TimestampField;
}

/** Statuses in which at least one message may have gone out. */
const AFTER_FIRST_SEND: readonly AssignmentStatus[] = [
  'in-progress',
  'completed',
  'replied',
  'bounced',
  'unsubscribed',
];

export const LIFECYCLE: Record<ProviderEventType, Transition> = {
  approved: { from: ['pending-approval'], to: 'scheduled', stamp: 'approvedAt' },
  sequenced: { from: ['scheduled'], stamp: 'sequencedAt' },
  message_sent: { from: ['scheduled', 'in-progress'], to: 'in-progress' },
  opened: { from: AFTER_FIRST_SEND },
  clicked: { from: AFTER_FIRST_SEND },
  reply_received: { from: ['scheduled', 'in-progress', 'completed', 'replied'], to: 'replied' },
  // A classification only relabels a reply (or waits for it): it may arrive before the reply, or long after.
  reply_classified: { from: ASSIGNMENT_STATUSES },
  forwarded: { from: ['in-progress', 'completed', 'replied'] },
  bounced: { from: ['scheduled', 'in-progress', 'completed'], to: 'bounced', stamp: 'bouncedAt' },
  unsubscribed: {
    from: ['scheduled', 'in-progress', 'completed'],
    to: 'unsubscribed',
    stamp: 'unsubscribedAt',
  },
  completed: { from: ['in-progress'], to: 'completed', stamp: 'completedAt' },
  contact_blocked: { from: ASSIGNMENT_STATUSES },
};

/** The outcome of applying an event to a status: the next status and what to stamp, or null if impossible. */
export function transition(
  status: AssignmentStatus,
  event: ProviderEventType,
): { status: AssignmentStatus; stamp?: TimestampField } | null {
  const rule = LIFECYCLE[event];
  if (!rule.from.includes(status)) return null;
  return { status: rule.to ?? status, stamp: rule.stamp };
}
