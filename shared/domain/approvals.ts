import { assignments } from '#store/assignments.ts';
import { campaigns } from '#store/campaigns.ts';
import { CampaignNotFound, DomainError } from './errors.ts';
import { recordProviderEvent } from './provider-events.ts';

/**
 * Approving pending-approval assignments (the operator CLI, the dashboard to
 * come): each approval is the `approved` provider event of the lifecycle
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

export async function approveAssignments(
  orgId: number,
  campaignId: number,
  selection: ApprovalSelection,
): Promise<ApprovalResult> {
  if (!(await campaigns.get(orgId, campaignId))) throw new CampaignNotFound(campaignId);
  const ids =
    'all' in selection
      ? (await assignments.firstOfCampaign(orgId, campaignId, MAX_APPROVALS_PER_RUN, 'pending-approval')).map(
          (record) => record.assignmentId,
        )
      : [...new Set(selection.assignmentIds)];
  const found = new Map(
    (await assignments.getMany(orgId, ids)).map((record) => [record.assignmentId, record] as const),
  );
  const result: ApprovalResult = { approved: [], skipped: [] };
  for (const assignmentId of ids) {
    const record = found.get(assignmentId);
    if (!record || record.campaignId !== campaignId) {
      result.skipped.push({ assignmentId, reason: `not an assignment of campaign ${campaignId}` });
      continue;
    }
    if (record.status !== 'pending-approval') {
      result.skipped.push({ assignmentId, reason: `it is ${record.status}` });
      continue;
    }
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
