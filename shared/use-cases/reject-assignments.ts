import {
  type ApprovalSelection,
  type RejectionResult,
  rejectAssignments as reject,
} from '#domain/approvals.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Check the campaign is the organization's (CampaignNotFound).
 * 2. Take the assignments named, or every pending-approval one of the campaign (up to 10,000).
 * 3. Withdraw each pending one: it is deleted with its counters, and its contact may be pushed again.
 * 4. Return the ids rejected and those skipped, with why.
 *
 * The dashboard's approvals page.
 */
export function rejectAssignments(
  input: ForOrganization & { campaignId: number; selection: ApprovalSelection },
): Promise<RejectionResult> {
  return reject(input.orgId, input.campaignId, input.selection);
}
