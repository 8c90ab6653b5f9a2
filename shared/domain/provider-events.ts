import type { ProviderEvent } from '#schemas/import.ts';
import { assignments } from '#store/assignments.ts';
import { type CampaignRecord, campaigns } from '#store/campaigns.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { type ContactRecord, contacts } from '#store/contacts.ts';
import { allocateId } from '#store/ids.ts';
import { type MessageRecord, messages as storedMessages } from '#store/messages.ts';
import { providerEvents } from '#store/provider-events.ts';
import { type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
import type { AssignmentFacts } from './aggregates.ts';
import { assignmentCounterWrites, assignmentDeltas } from './aggregates.ts';
import { type AssignmentRecord, factsOf } from './assignments.ts';
import { blockContactWrites, getContact } from './contacts.ts';
import { enrollmentOutboxWrite, enrollTargetOf, stopOutboxWrite } from './enrollment.ts';
import { AssignmentNotFound, EventNotRecordable, TransitionNotAllowed } from './errors.ts';
import { LIFECYCLE, transition } from './lifecycle.ts';
import {
  assignmentMessageUpdate,
  type MessageEffects,
  messageEffects,
  messageRecord,
  type NewMessage,
  toCampaignMessage,
} from './messages.ts';
import { assignmentMessageEventWrite, messageEventWrites } from './webhook-events.ts';

/**
 * The one write path for what providers report about an assignment. It
 * enforces the lifecycle (an impossible transition writes nothing), applies
 * each event id once, and updates in the same transaction the assignment, the
 * campaign's stats and status counts, the organization's analytics and the
 * contact's eligibility summary.
 *
 * Primary course: 1. read the assignment and the event's marker together
 * 2. compute the transition and the counter deltas 3. write everything in one
 * transaction conditioned on the assignment's version 4. on a lost race, retry.
 */

export type RecordOutcome = { outcome: 'applied' | 'duplicate'; assignment: AssignmentRecord };

/** Whether the change also emits its webhook events (live traffic does; imports only when asked). */
export interface RecordOptions {
  emitEvents?: boolean;
  /**
   * Whether it also acts at the provider (live traffic does; a history import never does, its leads
   * being at the provider already): an approval enrolls, an unsubscribe stops the contact's other leads.
   * Defaults to `emitEvents`.
   */
  actAtProviders?: boolean;
  /** reply_received: what the provider needs to answer in this thread (its webhook said). */
  replyThread?: Readonly<Record<string, string>>;
  /**
   * The writer slot the writing process holds (writer-slot-lease.ts): the
   * counters go to its shards, which no other writer writes meanwhile. Without
   * one, to the shards the assignment's id picks.
   */
  writerSlot?: number | null;
}

/**
 * What building an event's writes reads besides the assignment: the table for
 * live traffic; the bulk import's in-memory image of what it has built so far
 * (shared/domain/bulk-import.ts).
 */
export interface EventReads {
  contact(orgId: number, contact: { id: number; email: string | null }): Promise<ContactRecord | null>;
  message(orgId: number, messageId: number): Promise<MessageRecord | null>;
  campaign(orgId: number, campaignId: number): Promise<CampaignRecord | null>;
  /** An id for a message the event carries without one. */
  newMessageId(): Promise<number>;
}

const tableReads: EventReads = {
  contact: getContact,
  message: (orgId, messageId) => storedMessages.get(orgId, messageId),
  campaign: (orgId, campaignId) => campaigns.get(orgId, campaignId),
  newMessageId: () => allocateId('message'),
};

/** Tries of an event whose transaction lost a race; the wait before each retry is random, doubling from 10 ms. */
const MAX_ATTEMPTS = 8;
const RETRY_BASE_DELAY_MS = 10;

/**
 * Records one provider event for one of the organization's assignments, with
 * its webhook events (First Touch, Positive Reply) in the same transaction
 * unless `emitEvents` is false.
 */
export async function recordProviderEvent(
  orgId: number,
  event: ProviderEvent,
  options: RecordOptions = {},
): Promise<RecordOutcome> {
  return retryOnConflict(
    async (): Promise<RecordOutcome> => {
      const { assignment, applied } = await providerEvents.readAssignmentAndMarker(
        orgId,
        event.assignment_id,
        event.id,
      );
      if (!assignment) throw new AssignmentNotFound(event.assignment_id);
      if (applied) return { outcome: 'duplicate', assignment };
      const emitEvents = options.emitEvents ?? true;
      const writes = await eventWrites(orgId, event, assignment, {
        emitEvents,
        actAtProviders: options.actAtProviders ?? emitEvents,
        replyThread: options.replyThread,
        writerSlot: options.writerSlot ?? null,
      });
      try {
        await transact(writes);
        return { outcome: 'applied', assignment };
      } catch (error) {
        if (!(error instanceof TransactionConflictError)) throw error;
        // Someone applied this event id meanwhile.
        if (error.failed.has('event-applied')) return { outcome: 'duplicate', assignment };
        if (![...error.failed].every((name) => STALE_STATE_CONDITIONS.has(name))) {
          throw new EventNotRecordable(`Cannot record event ${event.id}: ${conflictReason(error.failed)}`);
        }
        // The state read before the write changed meanwhile: read it again and retry.
        throw error;
      }
    },
    { attempts: MAX_ATTEMPTS, baseDelayMs: RETRY_BASE_DELAY_MS, retryIf: () => true },
  );
}

/**
 * Conditions that fail only because the state read before the write changed
 * meanwhile (the assignment's version, the contact's blocked flag): retried.
 */
const STALE_STATE_CONDITIONS: ReadonlySet<string> = new Set([
  'assignment-changed',
  'assignment-id-taken',
  'assignment-not-found',
  'assignment-not-pending',
  'contact-changed',
  'contact-exists',
  'contact-not-found',
  'contact-assignment-refused',
]);

/** Conditions on the event's message: its id is taken, by this assignment or another. */
const MESSAGE_CONDITIONS: ReadonlySet<string> = new Set(['message-exists', 'message-of-other-assignment']);

function conflictReason(failed: ReadonlySet<string>): string {
  if ([...failed].some((name) => MESSAGE_CONDITIONS.has(name)))
    return 'the message id exists already, or belongs to another assignment';
  return `conditions failed on ${[...failed].join(', ')}`;
}

/**
 * Every write that records the event on the assignment as read, its marker
 * first; the transition must be possible from the assignment's status.
 */
export async function eventWrites(
  orgId: number,
  event: ProviderEvent,
  assignment: AssignmentRecord,
  options: {
    emitEvents: boolean;
    actAtProviders: boolean;
    replyThread: RecordOptions['replyThread'];
    writerSlot?: number | null;
  },
  reads: EventReads = tableReads,
): Promise<TransactItem[]> {
  const { emitEvents, actAtProviders } = options;
  const writerSlot = options.writerSlot ?? null;
  const next = transition(assignment.status, event.type);
  if (!next) {
    throw new TransitionNotAllowed(
      `Cannot record ${event.type} for assignment ${assignment.assignmentId}: it is ${assignment.status} (allowed from ${LIFECYCLE[event.type].from.join(', ')})`,
    );
  }
  const at = event.at ?? new Date().toISOString();
  const marker = providerEvents.markerPut(orgId, {
    eventId: event.id,
    assignmentId: assignment.assignmentId,
    eventType: event.type,
    at,
  });
  if (event.type === 'contact_blocked') {
    const contact = await reads.contact(orgId, assignment.contact);
    return [
      marker,
      ...(contact ? blockContactWrites(orgId, contact, { stopAtProviders: actAtProviders, writerSlot }) : []),
    ];
  }
  if (event.type === 'reply_classified') {
    return [marker, ...(await classificationWrites(orgId, event, assignment, emitEvents, writerSlot, reads))];
  }

  const writes: TransactItem[] = [marker];
  const set: Record<string, unknown> = {};
  let after: AssignmentFacts = { ...factsOf(assignment), status: next.status };
  if (next.status !== assignment.status) {
    set.status = next.status;
    set.gsi2pk = assignments.statusIndex(orgId, assignment.campaignId, next.status);
  }
  if (next.stamp) set[next.stamp] = at;
  // Before the assignment's update is built: an approval sets its pending enrollment there.
  const providerWork = actAtProviders ? await providerWorkWrites(orgId, event, assignment, set, reads) : [];

  const remove: string[] = [];
  let messages: (NewMessage & { id: number })[] = [];
  if (event.type === 'message_sent' || event.type === 'reply_received' || event.type === 'forwarded') {
    const message = await messageOf(event, assignment, at, reads);
    messages = [message];
    writes.push(storedMessages.putNew(orgId, assignment, message));
    if (event.type === 'reply_received') {
      set.lastReceivedMessageId = message.id;
      if (options.replyThread) set.replyThread = options.replyThread;
      // The reply took the pending classification, or brought its own, which supersedes it.
      if (assignment.pendingResponseType !== null) remove.push('pendingResponseType');
    }
  }
  const effects = messageEffects(assignment, messages);
  let clicks = 0;
  if (event.type === 'opened') effects.opens += 1;
  if (event.type === 'clicked') clicks = 1;
  // A message may arrive with opens already counted; they count like an opened event's.
  after = {
    ...after,
    sentCount: after.sentCount + effects.sent,
    openCount: after.openCount + effects.opens,
    clickCount: after.clickCount + clicks,
    positiveReplied: after.positiveReplied || effects.positiveReplied,
  };
  if (event.type === 'opened' && event.message_id !== undefined) {
    writes.push(storedMessages.addOpen(orgId, event.message_id, assignment.assignmentId));
  }
  if (clicks > 0) set.clickCount = assignment.clickCount + clicks;

  writes.push(assignmentMessageUpdate(orgId, assignment, effects, { set, remove }));
  const deltas = assignmentDeltas(factsOf(assignment), after);
  writes.push(...assignmentCounterWrites(orgId, assignment, deltas, messages.length, writerSlot));
  if (next.status !== assignment.status || next.stamp === 'completedAt') {
    writes.push(
      contacts.setAssignmentStatus(
        orgId,
        assignment.contact,
        assignment.assignmentId,
        next.status,
        next.stamp === 'completedAt' ? at : assignment.completedAt,
      ),
    );
  }
  if (emitEvents) {
    const recorded = messages.map((message) => toCampaignMessage(messageRecord(assignment, message)));
    writes.push(...messageEventWrites(orgId, assignment, recorded));
  }
  writes.push(...providerWork);
  return writes;
}

/**
 * What an event sets in motion at the providers (docs/providers.md#enrollment): an approval on a
 * sequence linked to a connected provider campaign enrolls the assignment there (its pending
 * enrollment is `set` on the assignment); a bounce or an unsubscribe blocks the contact, so its
 * other leads still running at a provider are stopped.
 */
async function providerWorkWrites(
  orgId: number,
  event: ProviderEvent,
  assignment: AssignmentRecord,
  set: Record<string, unknown>,
  reads: EventReads,
): Promise<TransactItem[]> {
  if (event.type === 'approved') {
    const campaign = await reads.campaign(orgId, assignment.campaignId);
    const sequence = campaign?.sequences.find((each) => each.id === assignment.sequenceId);
    const target = sequence ? enrollTargetOf(sequence) : null;
    if (!target || assignment.providerLeadId !== null) return [];
    set.enrollTarget = target;
    set.enrollment = { status: 'pending', error: null, updatedAt: new Date().toISOString() };
    return [enrollmentOutboxWrite(orgId, [assignment.assignmentId])];
  }
  if (event.type === 'bounced' || event.type === 'unsubscribed') {
    const contact = await reads.contact(orgId, assignment.contact);
    const others = Object.keys(contact?.assignments ?? {})
      .map(Number)
      .filter((id) => id !== assignment.assignmentId);
    return others.length > 0 ? [stopOutboxWrite(orgId, others, event.type)] : [];
  }
  return [];
}

type MessageEvent = Extract<ProviderEvent, { type: 'message_sent' | 'reply_received' | 'forwarded' }>;

/**
 * The message an event records. A reply without its own response type (the
 * event's, else its message's) takes the classification that arrived before
 * it, else it is `neutral` until a `reply_classified` says otherwise.
 */
async function messageOf(
  event: MessageEvent,
  assignment: AssignmentRecord,
  at: string,
  reads: EventReads,
): Promise<NewMessage & { id: number }> {
  const type =
    event.type === 'message_sent' ? 'sent' : event.type === 'reply_received' ? 'received' : 'forward';
  return {
    ...event.message,
    type,
    id: event.message.id ?? (await reads.newMessageId()),
    created_at: event.message.created_at ?? at,
    open_count: event.message.open_count ?? 0,
    response_type:
      event.type === 'reply_received'
        ? (event.response_type ?? event.message.response_type ?? assignment.pendingResponseType ?? 'neutral')
        : (event.message.response_type ?? null),
  };
}

const NO_MESSAGE_EFFECTS: MessageEffects = { sent: 0, opens: 0, last: null, positiveReplied: false };

/**
 * The writes of a `reply_classified` (besides its marker): it sets the
 * response type of the assignment's latest received message, or, before any
 * reply, keeps it pending on the assignment for the next one. Either way the
 * assignment's version moves, so a concurrent reply or classification retries
 * on the state this one left. Positive Reply is announced the first time a
 * message becomes positive (a reply that took a positive pending
 * classification was announced when it was recorded); by the same rule the
 * assignment then counts in its campaign's positive replies, for good.
 */
async function classificationWrites(
  orgId: number,
  event: Extract<ProviderEvent, { type: 'reply_classified' }>,
  assignment: AssignmentRecord,
  emitEvents: boolean,
  writerSlot: number | null,
  reads: EventReads,
): Promise<TransactItem[]> {
  const message =
    assignment.lastReceivedMessageId === null
      ? null
      : await reads.message(orgId, assignment.lastReceivedMessageId);
  if (!message) {
    const set = { pendingResponseType: event.response_type };
    return [assignmentMessageUpdate(orgId, assignment, NO_MESSAGE_EFFECTS, { set })];
  }
  const wasPositive = message.everPositive || message.responseType === 'positive';
  const positive = event.response_type === 'positive';
  const counted = positive && !assignment.positiveReplied;
  const writes = [
    storedMessages.classify(orgId, message.messageId, assignment.assignmentId, {
      responseType: event.response_type,
      everPositive: wasPositive || positive,
    }),
    assignmentMessageUpdate(orgId, assignment, { ...NO_MESSAGE_EFFECTS, positiveReplied: counted }),
  ];
  if (counted) {
    const deltas = assignmentDeltas(factsOf(assignment), { ...factsOf(assignment), positiveReplied: true });
    writes.push(...assignmentCounterWrites(orgId, assignment, deltas, 0, writerSlot));
  }
  if (emitEvents && positive && !wasPositive) {
    const classified = toCampaignMessage({ ...message, responseType: event.response_type });
    writes.push(assignmentMessageEventWrite(orgId, 'positive_reply', assignment, classified));
  }
  return writes;
}
