import { randomUUID } from 'node:crypto';
import { MAX_OPPORTUNITIES_PER_EVENT } from '#definitions/webhook-limits.ts';
import type { Account, CampaignMessage } from '#schemas/resources.ts';
import type { WebhookPayload } from '#schemas/webhooks.ts';
import { accounts } from '#store/accounts.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { webhookEventOutboxWrite } from '#store/outbox.ts';
import {
  failedSubjects,
  MAX_TRANSACTION_ITEMS,
  type TransactItem,
  TransactionConflictError,
  transact,
} from '#store/transactions.ts';
import type { AssignmentRecord } from './assignments.ts';

/**
 * Emitting webhook events. Each event is an outbox item written in the same
 * transaction as the change that causes it (docs/webhooks.md): First Touch
 * with an assignment's first sent message, Positive Reply with a received
 * message whose response_type is `positive`. New Opportunities are batched:
 * the accounts' qualifications are marked in their own transaction, and the
 * marks become events of up to 99 accounts per campaign (the event and the
 * clearing of its marks are one transaction, so nothing is lost or sent twice).
 */

/** A new event id: the `webhook-id` of every delivery of the event. */
export const newEventId = (): string => `msg_${randomUUID().replaceAll('-', '')}`;

/** The outbox write of an event. */
export function webhookEventWrite(
  orgId: number,
  payload: WebhookPayload,
  eventId = newEventId(),
): TransactItem {
  return webhookEventOutboxWrite(orgId, {
    id: eventId,
    type: payload.type,
    payload: JSON.stringify(payload),
  });
}

/**
 * The outbox write of a First Touch or Positive Reply event for a message of
 * the assignment: it carries the ids a subscriber acts on (a Positive Reply
 * can be answered with POST /assignments/{assignment_id}/reply at once).
 */
export function assignmentMessageEventWrite(
  orgId: number,
  type: 'first_touch' | 'positive_reply',
  assignment: AssignmentRecord,
  message: CampaignMessage,
): TransactItem {
  return webhookEventWrite(orgId, {
    type,
    timestamp: message.created_at ?? new Date().toISOString(),
    data: {
      campaign_id: assignment.campaignId,
      sequence_id: assignment.sequenceId,
      assignment_id: assignment.assignmentId,
      contact: assignment.contact,
      message,
    },
  });
}

/**
 * The events new messages of an assignment cause: First Touch for the first
 * sent one when the assignment had sent nothing yet, Positive Reply for each
 * received one with response_type `positive`. Written in the messages' transaction.
 */
export function messageEventWrites(
  orgId: number,
  assignment: AssignmentRecord,
  messages: CampaignMessage[],
): TransactItem[] {
  const writes: TransactItem[] = [];
  if (assignment.sentCount === 0) {
    const [firstSent] = messages
      .filter((message) => message.type === 'sent')
      // ISO 8601 times order as text; code units, not the locale's collation (its first use costs ~12 ms).
      .sort((a, b) => {
        const [x, y] = [a.created_at ?? '', b.created_at ?? ''];
        return x < y ? -1 : x > y ? 1 : a.id - b.id;
      });
    if (firstSent) writes.push(assignmentMessageEventWrite(orgId, 'first_touch', assignment, firstSent));
  }
  for (const message of messages) {
    if (message.type === 'received' && message.response_type === 'positive') {
      writes.push(assignmentMessageEventWrite(orgId, 'positive_reply', assignment, message));
    }
  }
  return writes;
}

/** An account newly qualified into a campaign, with its score and signals there. */
export interface NewOpportunity {
  campaignId: number;
  account: Account;
}

/** Accounts per event: the event and the clearing of each account's mark share one transaction. */
const ACCOUNTS_PER_EVENT = Math.min(MAX_OPPORTUNITIES_PER_EVENT, MAX_TRANSACTION_ITEMS - 1);
/** An event's payload stays well under DynamoDB's 400 KB item limit. */
const MAX_PAYLOAD_BYTES = 256 * 1024;

function batches(opportunities: NewOpportunity[]): NewOpportunity[][] {
  const result: NewOpportunity[][] = [];
  let current: NewOpportunity[] = [];
  let bytes = 0;
  for (const opportunity of opportunities) {
    const size = Buffer.byteLength(JSON.stringify(opportunity.account));
    if (current.length > 0 && (current.length >= ACCOUNTS_PER_EVENT || bytes + size > MAX_PAYLOAD_BYTES)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(opportunity);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}

/**
 * Turns marked new qualifications (shared/domain/accounts.ts) into New
 * Opportunities events, per campaign in account-id order. A qualification
 * that is no longer marked (emitted by a concurrent run) or no longer listed
 * (excluded meanwhile) is left out. Returns how many events were written.
 */
export async function emitNewOpportunities(orgId: number, opportunities: NewOpportunity[]): Promise<number> {
  const byCampaign = new Map<number, NewOpportunity[]>();
  for (const opportunity of opportunities) {
    const list = byCampaign.get(opportunity.campaignId) ?? [];
    list.push(opportunity);
    byCampaign.set(opportunity.campaignId, list);
  }
  let events = 0;
  for (const [campaignId, list] of [...byCampaign].sort(([a], [b]) => a - b)) {
    list.sort((a, b) => a.account.id - b.account.id);
    for (const batch of batches(list)) {
      if (await emitBatch(orgId, campaignId, batch)) events += 1;
    }
  }
  return events;
}

/**
 * One event for a batch and the clearing of its marks, in one transaction. A
 * qualification no longer marked or listed is left out of the next try; a
 * transaction cancelled by a concurrent one is tried again after a short wait.
 */
async function emitBatch(orgId: number, campaignId: number, batch: NewOpportunity[]): Promise<boolean> {
  let pending = batch;
  return retryOnConflict(
    async () => {
      if (pending.length === 0) return false;
      const writes: TransactItem[] = [
        webhookEventWrite(orgId, {
          type: 'new_opportunities',
          timestamp: new Date().toISOString(),
          data: { campaign_id: campaignId, accounts: pending.map((opportunity) => opportunity.account) },
        }),
        ...pending.map((opportunity) =>
          accounts.clearNewOpportunity(orgId, campaignId, opportunity.account.id),
        ),
      ];
      try {
        await transact(writes);
        return true;
      } catch (error) {
        if (error instanceof TransactionConflictError) {
          const gone = failedSubjects(error, 'opportunity-gone');
          pending = pending.filter((opportunity) => !gone.has(opportunity.account.id));
        }
        throw error;
      }
    },
    { attempts: 6, baseDelayMs: 10, retryIf: () => true },
  );
}
