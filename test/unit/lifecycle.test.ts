import { describe, expect, it } from 'vitest';
import { LIFECYCLE, type TimestampField, transition } from '#domain/lifecycle.ts';
import { PROVIDER_EVENT_TYPES, type ProviderEventType } from '#schemas/import.ts';
import { ASSIGNMENT_STATUSES, type AssignmentStatus } from '#schemas/resources.ts';

type Outcome = { status: AssignmentStatus; stamp?: TimestampField } | null;
type Row = [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

/** Columns of the table below, in this order. */
const COLUMNS: readonly AssignmentStatus[] = [
  'pending-approval',
  'scheduled',
  'in-progress',
  'completed',
  'replied',
  'bounced',
  'unsubscribed',
];

const to = (status: AssignmentStatus, stamp?: TimestampField): Outcome =>
  stamp ? { status, stamp } : { status };
const __ = null;

/**
 * The lifecycle of docs/decisions.md (Assignments) as a table, independently of LIFECYCLE: for each
 * event type, the outcome from each status (column order above). `__` is an
 * impossible transition. An outcome that keeps the status is an event that
 * only counts or stamps.
 */
// biome-ignore format: the table is easier to check aligned
const EXPECTED: Record<ProviderEventType, Row> = {
  //                 pending-approval           scheduled                             in-progress                         completed                           replied             bounced            unsubscribed
  approved:        [to('scheduled', 'approvedAt'), __,                                 __,                                 __,                                 __,                 __,                __],
  sequenced:       [__,                         to('scheduled', 'sequencedAt'),       __,                                 __,                                 __,                 __,                __],
  message_sent:    [__,                         to('in-progress'),                    to('in-progress'),                  __,                                 __,                 __,                __],
  opened:          [__,                         __,                                   to('in-progress'),                  to('completed'),                    to('replied'),      to('bounced'),     to('unsubscribed')],
  clicked:         [__,                         __,                                   to('in-progress'),                  to('completed'),                    to('replied'),      to('bounced'),     to('unsubscribed')],
  reply_received:  [__,                         to('replied'),                        to('replied'),                      to('replied'),                      to('replied'),      __,                __],
  reply_classified: [to('pending-approval'),    to('scheduled'),                      to('in-progress'),                  to('completed'),                    to('replied'),      to('bounced'),     to('unsubscribed')],
  forwarded:       [__,                         __,                                   to('in-progress'),                  to('completed'),                    to('replied'),      __,                __],
  bounced:         [__,                         to('bounced', 'bouncedAt'),           to('bounced', 'bouncedAt'),         to('bounced', 'bouncedAt'),         __,                 __,                __],
  unsubscribed:    [__,                         to('unsubscribed', 'unsubscribedAt'), to('unsubscribed', 'unsubscribedAt'), to('unsubscribed', 'unsubscribedAt'), __,             __,                __],
  completed:       [__,                         __,                                   to('completed', 'completedAt'),     __,                                 __,                 __,                __],
  contact_blocked: [to('pending-approval'),     to('scheduled'),                      to('in-progress'),                  to('completed'),                    to('replied'),      to('bounced'),     to('unsubscribed')],
};

const CASES = PROVIDER_EVENT_TYPES.flatMap((event) =>
  COLUMNS.map((status, column) => ({ event, status, expected: EXPECTED[event][column] ?? null })),
);
const TERMINAL: readonly AssignmentStatus[] = ['replied', 'bounced', 'unsubscribed'];

describe('assignment lifecycle', () => {
  it('covers every status and every provider event type', () => {
    // Prepare / Act
    const statuses = [...COLUMNS].sort();
    const events = Object.keys(EXPECTED).sort();

    // Assess
    expect(statuses).toEqual([...ASSIGNMENT_STATUSES].sort());
    expect(events).toEqual([...PROVIDER_EVENT_TYPES].sort());
    expect(CASES).toHaveLength(7 * 12);
  });

  it.each(CASES.filter((entry) => entry.expected !== null))(
    'allows $event from $status',
    ({ event, status, expected }) => {
      // Act
      const outcome = transition(status, event);

      // Assess
      expect(outcome).not.toBeNull();
      expect(outcome!.status).toBe(expected!.status);
      expect(outcome!.stamp).toBe(expected!.stamp);
    },
  );

  it.each(CASES.filter((entry) => entry.expected === null))(
    'rejects $event from $status',
    ({ event, status }) => {
      // Act
      const outcome = transition(status, event);

      // Assess
      expect(outcome).toBeNull();
    },
  );

  it('lists in LIFECYCLE exactly the statuses the table allows', () => {
    for (const event of PROVIDER_EVENT_TYPES) {
      // Prepare
      const allowed = COLUMNS.filter((_, column) => EXPECTED[event][column] !== null);

      // Act
      const listed = [...LIFECYCLE[event].from];

      // Assess
      expect(listed.sort(), event).toEqual([...allowed].sort());
    }
  });

  it('never leads out of a terminal status', () => {
    for (const status of TERMINAL) {
      for (const event of PROVIDER_EVENT_TYPES) {
        // Act
        const outcome = transition(status, event);

        // Assess
        if (outcome) expect(outcome.status, `${event} from ${status}`).toBe(status);
      }
    }
  });
});
