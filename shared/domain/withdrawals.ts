import { assignments } from '#store/assignments.ts';
import { campaignShardCounters } from '#store/campaigns.ts';
import { type ContactRecord, contacts } from '#store/contacts.ts';
import type { TransactItem } from '#store/transactions.ts';
import { accumulate, assignmentDeltas, type CampaignCounts } from './aggregates.ts';

/**
 * Withdrawing pending-approval assignments: a takeover by a raw push, or a
 * rejection on the approvals page. The assignment is deleted, its entry
 * leaves the contact's summary (whose version the write expects, so a
 * concurrent change of the contact cancels it), and the campaign's counters
 * lose what it counted. A pending assignment has sent nothing, so nothing
 * else counted it.
 */

/**
 * What a withdrawal takes off one campaign's counters, and the assignment
 * whose counter shard it goes to (any of the campaign's: a sum reads the same).
 */
export interface CampaignDelta {
  assignmentId: number;
  delta: Partial<CampaignCounts>;
}

/** The writes of one contact's withdrawals and what they take off each campaign's counters. */
export interface Withdrawal {
  writes: TransactItem[];
  campaignDeltas: Map<number, CampaignDelta>;
}

/** The withdrawal of `assignmentIds`, pending assignments in `contact`'s summary as read. */
export function withdrawalOf(
  orgId: number,
  contact: ContactRecord,
  assignmentIds: readonly number[],
): Withdrawal {
  const writes: TransactItem[] = [];
  const withdrawn: { assignmentId: number; sequenceId: number }[] = [];
  const campaignDeltas = new Map<number, CampaignDelta>();
  for (const assignmentId of assignmentIds) {
    const entry = contact.assignments[String(assignmentId)]!;
    writes.push(assignments.deletePending(orgId, assignmentId));
    withdrawn.push({ assignmentId, sequenceId: entry.sequenceId });
    // A pending assignment has sent nothing: it counts only as pending (and as blocked if its contact is).
    const { campaign } = assignmentDeltas(
      {
        status: 'pending-approval',
        sentCount: 0,
        openCount: 0,
        clickCount: 0,
        contactBlocked: contact.blocked,
        positiveReplied: false,
      },
      null,
    );
    const total = campaignDeltas.get(entry.campaignId) ?? { assignmentId, delta: {} };
    accumulate(total.delta, campaign);
    campaignDeltas.set(entry.campaignId, total);
  }
  // The stats taken off above assume the contact's assignments and blocked flag as read: its version says so.
  writes.push(contacts.withdrawAssignments(orgId, contact, withdrawn));
  return { writes, campaignDeltas };
}

/** One transaction for several withdrawals, their campaign counter changes merged per campaign. */
export function withdrawalTransaction(orgId: number, withdrawals: readonly Withdrawal[]): TransactItem[] {
  const merged = new Map<number, CampaignDelta>();
  for (const withdrawal of withdrawals) {
    for (const [campaignId, { assignmentId, delta }] of withdrawal.campaignDeltas) {
      const total = merged.get(campaignId) ?? { assignmentId, delta: {} };
      accumulate(total.delta, delta);
      merged.set(campaignId, total);
    }
  }
  return [
    ...withdrawals.flatMap((withdrawal) => withdrawal.writes),
    ...[...merged].flatMap(
      ([campaignId, { assignmentId, delta }]) =>
        campaignShardCounters(orgId, campaignId, assignmentId, delta) ?? [],
    ),
  ];
}
