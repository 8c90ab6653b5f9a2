import { type AssignmentRecord, firstAssignmentsOfCampaign, getAssignments } from '#store/assignments.ts';
import { campaigns } from '#store/campaigns.ts';
import { MAX_TRANSACTION_ITEMS, TransactionConflictError, transact } from '#store/transactions.ts';
import { getContact } from './contacts.ts';
import { CampaignNotFound, DomainError } from './errors.ts';
import { recordProviderEvent } from './provider-events.ts';
import { type Withdrawal, withdrawalOf, withdrawalTransaction } from './withdrawals.ts';

/**
 * Approving and rejecting pending-approval assignments (the operator CLI,
 * the dashboard's approvals page). Each approval is the `approved` provider event of the lifecycle
 * (`pending-approval` → `scheduled`, `approved_at`), recorded through the one
 * write path with a fixed event id, so approving twice changes nothing. On a
 * sequence linked to a connected provider campaign it enrolls the assignment
 * there (docs/providers.md#enrollment).
 */

/** At most this many assignments are approved by one `--all` (run it again for more). */
export const MAX_APPROVALS_PER_RUN = 10_000;

export type ApprovalSelection = { assignmentIds: readonly number[] } | { all: true };

export interface ApprovalResult {
  approved: number[];
  skipped: { assignmentId: number; reason: string }[];
}

/** The event id of an assignment's approval: the same for every approval of it. */
const approvalEventId = (assignmentId: number) => `approval:${assignmentId}`;

/** The selected assignments of the campaign that are pending approval, and the others with why not. */
async function pendingSelection(orgId: number, campaignId: number, selection: ApprovalSelection) {
  if (!(await campaigns.get(orgId, campaignId))) throw new CampaignNotFound(campaignId);
  const ids =
    'all' in selection
      ? (await firstAssignmentsOfCampaign(orgId, campaignId, MAX_APPROVALS_PER_RUN, 'pending-approval')).map(
          (record) => record.assignmentId,
        )
      : [...new Set(selection.assignmentIds)];
  const found = new Map(
    (await getAssignments(orgId, ids)).map((record) => [record.assignmentId, record] as const),
  );
  const pending: AssignmentRecord[] = [];
  const skipped: ApprovalResult['skipped'] = [];
  for (const assignmentId of ids) {
    const record = found.get(assignmentId);
    if (!record || record.campaignId !== campaignId)
      skipped.push({ assignmentId, reason: `not an assignment of campaign ${campaignId}` });
    else if (record.status !== 'pending-approval')
      skipped.push({ assignmentId, reason: `it is ${record.status}` });
    else pending.push(record);
  }
  return { pending, skipped };
}

export async function approveAssignments(
  orgId: number,
  campaignId: number,
  selection: ApprovalSelection,
): Promise<ApprovalResult> {
  const { pending, skipped } = await pendingSelection(orgId, campaignId, selection);
  const result: ApprovalResult = { approved: [], skipped };
  for (const { assignmentId } of pending) {
    try {
      await recordProviderEvent(orgId, {
        id: approvalEventId(assignmentId),
        type: 'approved',
        assignment_id: assignmentId,
      });
      result.approved.push(assignmentId);
    } catch (error) {
      // Withdrawn or changed meanwhile: reported, the others go on.
      if (!(error instanceof DomainError)) throw error;
      result.skipped.push({ assignmentId, reason: error.message });
    }
  }
  return result;
}

const CHANGED_MEANWHILE = 'its contact changed meanwhile';

export interface RejectionResult {
  rejected: number[];
  skipped: { assignmentId: number; reason: string }[];
}

/**
 * Rejects pending-approval assignments: each is withdrawn (deleted with its
 * counters and its entry in the contact's summary, as a raw push's takeover
 * withdraws one), so the contact may be pushed again. Many contacts share a
 * transaction; one whose contact changed meanwhile is reported skipped.
 */
export async function rejectAssignments(
  orgId: number,
  campaignId: number,
  selection: ApprovalSelection,
): Promise<RejectionResult> {
  const { pending, skipped } = await pendingSelection(orgId, campaignId, selection);
  const result: RejectionResult = { rejected: [], skipped };
  // One withdrawal per contact: a contact's summary is written once per transaction.
  const byContact = new Map<number, AssignmentRecord[]>();
  for (const record of pending)
    byContact.set(record.contact.id, [...(byContact.get(record.contact.id) ?? []), record]);
  const withdrawals: (Withdrawal & { assignmentIds: number[] })[] = [];
  for (const records of byContact.values()) {
    const { contact: fields } = records[0]!;
    const contact = await getContact(orgId, { id: fields.id, email: fields.email });
    const assignmentIds = records.map(({ assignmentId }) => assignmentId);
    if (!contact || assignmentIds.some((id) => !contact.assignments[String(id)])) {
      for (const assignmentId of assignmentIds)
        result.skipped.push({ assignmentId, reason: CHANGED_MEANWHILE });
      continue;
    }
    withdrawals.push({ assignmentIds, ...withdrawalOf(orgId, contact, assignmentIds) });
  }
  let batch: typeof withdrawals = [];
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await transact(withdrawalTransaction(orgId, batch));
      for (const { assignmentIds } of batch) result.rejected.push(...assignmentIds);
    } catch (error) {
      if (!(error instanceof TransactionConflictError)) throw error;
      // Someone changed one of the contacts: each alone, so only the changed ones are skipped.
      for (const withdrawal of batch) {
        try {
          await transact(withdrawalTransaction(orgId, [withdrawal]));
          result.rejected.push(...withdrawal.assignmentIds);
        } catch (single) {
          if (!(single instanceof TransactionConflictError)) throw single;
          for (const assignmentId of withdrawal.assignmentIds)
            result.skipped.push({ assignmentId, reason: CHANGED_MEANWHILE });
        }
      }
    }
    batch = [];
  };
  for (const withdrawal of withdrawals) {
    if (withdrawalTransaction(orgId, [...batch, withdrawal]).length > MAX_TRANSACTION_ITEMS) await flush();
    batch.push(withdrawal);
  }
  await flush();
  return result;
}

/** A contact waiting for approval in a campaign. */
export interface PendingApproval {
  assignmentId: number;
  sequenceId: number;
  email: string | null;
  name: string | null;
  companyName: string | null;
  createdAt: string;
}

/** The campaign's pending-approval assignments, newest first, at most `take` (CampaignNotFound). */
export async function listPendingApprovals(
  orgId: number,
  campaignId: number,
  take: number,
): Promise<PendingApproval[]> {
  if (!(await campaigns.get(orgId, campaignId))) throw new CampaignNotFound(campaignId);
  const records = await firstAssignmentsOfCampaign(orgId, campaignId, take, 'pending-approval');
  return records.map((record) => ({
    assignmentId: record.assignmentId,
    sequenceId: record.sequenceId,
    email: record.contact.email,
    name: record.contact.full_name,
    companyName: record.contact.company_name,
    createdAt: record.createdAt,
  }));
}
