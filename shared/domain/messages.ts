import type { MessageInput } from '#schemas/import.ts';
import type { CampaignMessage } from '#schemas/resources.ts';
import { assignments, type MessageEffects } from '#store/assignments.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { allocateIds } from '#store/ids.ts';
import { type MessageRecord, messages as storedMessages } from '#store/messages.ts';
import {
  failedSubjects,
  type TransactItem,
  TransactionConflictError,
  transact,
} from '#store/transactions.ts';
import { assignmentCounterWrites, assignmentDeltas } from './aggregates.ts';
import { type AssignmentRecord, factsOf, getAssignment } from './assignments.ts';
import { messageEventWrites } from './webhook-events.ts';

/**
 * Messages of an assignment. A sent message makes the assignment count as
 * sent; opens make it count as opened. The campaign keeps the number of its
 * messages for the history's `total`.
 */

/** A message to record; the id is allocated when absent. */
export type NewMessage = Omit<MessageInput, 'id' | 'assignment_id'> & { id?: number };

/** How a batch of messages changes its assignment (shared/store/assignments.ts). */
export type { MessageEffects };

/** The record of a message of the assignment as it is stored. */
export const messageRecord = (assignment: AssignmentRecord, message: NewMessage & { id: number }) =>
  storedMessages.record(assignment, message);

/** CampaignMessage, the message history's item. */
export function toCampaignMessage(record: MessageRecord): CampaignMessage {
  return {
    id: record.messageId,
    assignment_id: record.assignmentId,
    type: record.messageType,
    step_type: record.stepType,
    step_index: record.stepIndex,
    variant_index: record.variantIndex,
    response_type: record.responseType,
    subject: record.subject,
    body: record.body,
    open_count: record.openCount,
    sender_email: record.senderEmail,
    created_at: record.createdAt,
  };
}

/** What a batch of messages does to its assignment's counters and thread pointer. */
export function messageEffects(
  assignment: AssignmentRecord,
  messages: (NewMessage & { id: number })[],
): MessageEffects {
  let last: MessageEffects['last'] = null;
  let sent = 0;
  let opens = 0;
  let positiveReplied = false;
  for (const message of messages) {
    if (message.type === 'sent') sent += 1;
    opens += message.open_count;
    // As the Positive Reply webhook judges a message (webhook-events.ts).
    if (message.type === 'received' && message.response_type === 'positive') positiveReplied = true;
    const newer =
      !last ||
      message.created_at > last.at ||
      (message.created_at === last.at && message.id > last.messageId);
    if (newer) last = { messageId: message.id, at: message.created_at, senderEmail: null, subject: null };
  }
  if (last && assignment.lastMessageAt && assignment.lastMessageAt > last.at) last = null;
  // The mailbox that last wrote to the contact: the newest sent message's sender.
  const newestSent = messages
    .filter((message) => message.type === 'sent' && message.sender_email)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0];
  if (last && newestSent) last.senderEmail = newestSent.sender_email ?? null;
  // The thread's subject, for replies: the newest subject in the batch.
  const newestWithSubject = messages
    .filter((message) => message.subject)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0];
  if (last && newestWithSubject) last.subject = newestWithSubject.subject ?? null;
  return { sent, opens, last, positiveReplied };
}

/**
 * The assignment update of a message batch: counters, the thread pointer,
 * other attributes to set or remove, and the version check that makes
 * concurrent writers retry.
 */
export function assignmentMessageUpdate(
  orgId: number,
  assignment: AssignmentRecord,
  effects: MessageEffects,
  extra: { set?: Record<string, unknown>; remove?: readonly string[] } = {},
): TransactItem {
  return assignments.messageUpdate(orgId, assignment, effects, extra.set, extra.remove);
}

/** Messages per transaction in a history import (room for the assignment, campaign and analytics updates). */
const MESSAGES_PER_TRANSACTION = 90;
/** With webhook events, each message may bring one (and the first sent one a First Touch too). */
const MESSAGES_PER_TRANSACTION_WITH_EVENTS = 45;

/**
 * Records past messages of one assignment (the import): the messages, the
 * assignment's counters and the campaign and organization aggregates, in
 * transactions of up to 90 messages. Messages whose id exists are skipped, so
 * a re-import changes nothing. Returns how many were written. With
 * `emitEvents`, the webhook events they cause (First Touch, Positive Reply)
 * are written in the same transactions.
 */
export async function recordMessageHistory(
  orgId: number,
  assignmentId: number,
  messages: NewMessage[],
  options: { emitEvents?: boolean } = {},
): Promise<number> {
  const missingIds = messages.filter((message) => message.id === undefined).length;
  const allocated = await allocateIds('message', missingIds);
  const withIds = messages.map((message) => ({ ...message, id: message.id ?? allocated.shift()! }));
  const emitEvents = options.emitEvents === true;
  let written = 0;
  for (const chunk of historyChunks(withIds, emitEvents)) {
    written += await writeHistoryChunk(orgId, assignmentId, chunk, emitEvents);
  }
  return written;
}

/** One assignment's history in the chunks it is written in, a transaction each. */
export function historyChunks<T>(messages: readonly T[], emitEvents: boolean): T[][] {
  const perTransaction = emitEvents ? MESSAGES_PER_TRANSACTION_WITH_EVENTS : MESSAGES_PER_TRANSACTION;
  const chunks: T[][] = [];
  for (let start = 0; start < messages.length; start += perTransaction) {
    chunks.push(messages.slice(start, start + perTransaction));
  }
  return chunks;
}

/**
 * The writes of one chunk of history on the assignment as read: the
 * messages, the assignment's counters and thread pointer, the campaign and
 * organization aggregates and, with `emitEvents`, the webhook events.
 */
export function historyChunkWrites(
  orgId: number,
  assignment: AssignmentRecord,
  messages: (NewMessage & { id: number })[],
  emitEvents: boolean,
): TransactItem[] {
  const effects = messageEffects(assignment, messages);
  const after = {
    ...factsOf(assignment),
    sentCount: assignment.sentCount + effects.sent,
    openCount: assignment.openCount + effects.opens,
    positiveReplied: assignment.positiveReplied || effects.positiveReplied,
  };
  const deltas = assignmentDeltas(factsOf(assignment), after);
  const writes: TransactItem[] = messages.map((message) => storedMessages.putNew(orgId, assignment, message));
  writes.push(assignmentMessageUpdate(orgId, assignment, effects));
  writes.push(...assignmentCounterWrites(orgId, assignment, deltas, messages.length));
  if (emitEvents) {
    const recorded = messages.map((message) => toCampaignMessage(messageRecord(assignment, message)));
    writes.push(...messageEventWrites(orgId, assignment, recorded));
  }
  return writes;
}

/**
 * One transaction for a chunk, read afresh on each try: messages recorded
 * before (a re-import) are left out of the next, and a lost race (the
 * assignment's version moved) is tried again after a short random wait.
 */
async function writeHistoryChunk(
  orgId: number,
  assignmentId: number,
  chunk: (NewMessage & { id: number })[],
  emitEvents: boolean,
): Promise<number> {
  let messages = chunk;
  return retryOnConflict(
    async () => {
      if (messages.length === 0) return 0;
      const assignment = await getAssignment(orgId, assignmentId);
      const writes = historyChunkWrites(orgId, assignment, messages, emitEvents);
      try {
        await transact(writes);
        return messages.length;
      } catch (error) {
        if (error instanceof TransactionConflictError) {
          // Some were recorded before (a re-import): the next try writes the others.
          const existing = failedSubjects(error, 'message-exists');
          messages = messages.filter((message) => !existing.has(message.id));
        }
        throw error;
      }
    },
    { attempts: 9, baseDelayMs: 10, retryIf: () => true },
  );
}

/** A page of a campaign's messages, newest first, reading at most `skip + take` index entries. */
export async function listCampaignMessages(
  orgId: number,
  campaignId: number,
  skip: number,
  take: number,
): Promise<CampaignMessage[]> {
  const records = await storedMessages.firstOfCampaign(orgId, campaignId, skip + take);
  return records.slice(skip).map(toCampaignMessage);
}
