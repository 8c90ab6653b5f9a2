import { tableName } from '#platform/config.ts';
import type { MessageInput } from '#schemas/import.ts';
import type { CampaignMessage } from '#schemas/resources.ts';
import { allocateIds } from '#store/ids.ts';
import { keys } from '#store/keys.ts';
import { queryFirst } from '#store/query.ts';
import { addCounters, type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
import { assignmentDeltas } from './aggregates.ts';
import { type AssignmentRecord, factsOf, getAssignment } from './assignments.ts';
import { messageEventWrites } from './webhook-events.ts';

/**
 * Messages of an assignment. A sent message makes the assignment count as
 * sent; opens make it count as opened. The campaign keeps the number of its
 * messages for the history's `total`.
 */

/** A message to record; the id is allocated when absent. */
export type NewMessage = Omit<MessageInput, 'id' | 'assignment_id'> & { id?: number };

/** How a batch of messages changes its assignment. */
export interface MessageEffects {
  sent: number;
  opens: number;
  /** The newest message of the batch, if newer than the assignment's last, with the thread's latest sender and subject. */
  last: { messageId: number; at: string; senderEmail: string | null; subject: string | null } | null;
}

/** The stored item of a message. */
export function messageItem(
  orgId: number,
  assignment: AssignmentRecord,
  message: NewMessage & { id: number },
) {
  return {
    ...keys.message(orgId, message.id),
    ...keys.messageListing(orgId, assignment.campaignId, message.created_at, message.id),
    type: 'message',
    orgId,
    messageId: message.id,
    assignmentId: assignment.assignmentId,
    campaignId: assignment.campaignId,
    sequenceId: assignment.sequenceId,
    messageType: message.type,
    stepType: message.step_type,
    stepIndex: message.step_index ?? null,
    variantIndex: message.variant_index ?? null,
    responseType: message.response_type ?? null,
    subject: message.subject ?? null,
    body: message.body ?? null,
    openCount: message.open_count,
    senderEmail: message.sender_email ?? null,
    createdAt: message.created_at,
  };
}

/** CampaignMessage, the message history's item. */
export function toCampaignMessage(item: Record<string, unknown>): CampaignMessage {
  return {
    id: item.messageId as number,
    assignment_id: item.assignmentId as number,
    type: item.messageType as CampaignMessage['type'],
    step_type: item.stepType as string,
    step_index: (item.stepIndex as number | null) ?? null,
    variant_index: (item.variantIndex as number | null) ?? null,
    response_type: (item.responseType as string | null) ?? null,
    subject: (item.subject as string | null) ?? null,
    body: (item.body as string | null) ?? null,
    open_count: Number(item.openCount ?? 0),
    sender_email: (item.senderEmail as string | null) ?? null,
    created_at: (item.createdAt as string | null) ?? null,
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
  for (const message of messages) {
    if (message.type === 'sent') sent += 1;
    opens += message.open_count;
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
  return { sent, opens, last };
}

/**
 * The assignment update of a message batch: counters, the thread pointer and
 * the version check that makes concurrent writers retry.
 */
export function assignmentMessageUpdate(
  orgId: number,
  assignment: AssignmentRecord,
  effects: MessageEffects,
  extra: { set?: Record<string, unknown> } = {},
): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':version': assignment.version, ':one': 1 };
  const sets: string[] = [];
  const adds = ['version :one'];
  if (effects.sent > 0) {
    adds.push('sentCount :sent');
    values[':sent'] = effects.sent;
  }
  if (effects.opens > 0) {
    adds.push('openCount :opens');
    values[':opens'] = effects.opens;
  }
  if (effects.last) {
    sets.push('lastMessageId = :lastId', 'lastMessageAt = :lastAt');
    values[':lastId'] = effects.last.messageId;
    values[':lastAt'] = effects.last.at;
    if (effects.last.senderEmail) {
      sets.push('lastSenderEmail = :sender');
      values[':sender'] = effects.last.senderEmail;
    }
    if (effects.last.subject) {
      sets.push('lastSubject = :subject');
      values[':subject'] = effects.last.subject;
    }
  }
  Object.entries(extra.set ?? {}).forEach(([name, value], index) => {
    names[`#x${index}`] = name;
    values[`:x${index}`] = value;
    sets.push(`#x${index} = :x${index}`);
  });
  return {
    Update: {
      TableName: tableName(),
      Key: keys.assignment(orgId, assignment.assignmentId),
      UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')}`,
      ConditionExpression: 'version = :version',
      ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
      ExpressionAttributeValues: values,
    },
  };
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
  const perTransaction = emitEvents ? MESSAGES_PER_TRANSACTION_WITH_EVENTS : MESSAGES_PER_TRANSACTION;
  let written = 0;
  for (let start = 0; start < withIds.length; start += perTransaction) {
    written += await writeHistoryChunk(
      orgId,
      assignmentId,
      withIds.slice(start, start + perTransaction),
      emitEvents,
    );
  }
  return written;
}

async function writeHistoryChunk(
  orgId: number,
  assignmentId: number,
  messages: (NewMessage & { id: number })[],
  emitEvents: boolean,
  attempt = 0,
): Promise<number> {
  if (messages.length === 0) return 0;
  const assignment = await getAssignment(orgId, assignmentId);
  const effects = messageEffects(assignment, messages);
  const after = {
    ...factsOf(assignment),
    sentCount: assignment.sentCount + effects.sent,
    openCount: assignment.openCount + effects.opens,
  };
  const deltas = assignmentDeltas(factsOf(assignment), after);
  const writes: TransactItem[] = messages.map((message) => ({
    Put: {
      TableName: tableName(),
      Item: messageItem(orgId, assignment, message),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
  writes.push(assignmentMessageUpdate(orgId, assignment, effects));
  writes.push(
    addCounters(keys.campaign(orgId, assignment.campaignId), {
      ...deltas.campaign,
      messagesCount: messages.length,
    })!,
  );
  const organizationWrite = addCounters(keys.analytics(orgId), deltas.organization);
  if (organizationWrite) writes.push(organizationWrite);
  if (emitEvents) {
    const recorded = messages.map((message) => toCampaignMessage(messageItem(orgId, assignment, message)));
    writes.push(...messageEventWrites(orgId, assignment, recorded));
  }
  try {
    await transact(writes);
    return messages.length;
  } catch (error) {
    if (!(error instanceof TransactionConflictError) || attempt >= 8) throw error;
    const existing = error.failedConditions.filter((index) => index < messages.length);
    if (existing.length > 0) {
      // Some were recorded before (a re-import): write the others.
      const remaining = messages.filter((_, index) => !existing.includes(index));
      return writeHistoryChunk(orgId, assignmentId, remaining, emitEvents, attempt + 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));
    return writeHistoryChunk(orgId, assignmentId, messages, emitEvents, attempt + 1);
  }
}

/** A page of a campaign's messages, newest first, reading at most `skip + take` index entries. */
export async function listCampaignMessages(
  orgId: number,
  campaignId: number,
  skip: number,
  take: number,
): Promise<CampaignMessage[]> {
  const items = await queryFirst('gsi1', keys.campaignMessagesIndex(orgId, campaignId).gsi1pk, skip + take);
  return items.slice(skip).map(toCampaignMessage);
}
