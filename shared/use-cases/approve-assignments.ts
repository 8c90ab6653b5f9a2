import {
  type ApprovalResult,
  type ApprovalSelection,
  approveAssignments as approve,
} from '#domain/approvals.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Check the campaign is the organization's (CampaignNotFound).
 * 2. Take the assignments named, or every pending-approval one of the campaign (up to 10,000).
 * 3. Record each one's approval (`pending-approval` → `scheduled`); on a sequence linked to a
 *    connected provider campaign, that enrolls it there.
 * 4. Return the ids approved and those skipped, with why.
 *
 * `outreach-admin assignments approve`; the dashboard's approvals page.
 */
export function approveAssignments(
  input: ForOrganization & { campaignId: number; selection: ApprovalSelection },
): Promise<ApprovalResult> {
  return approve(input.orgId, input.campaignId, input.selection);
}
