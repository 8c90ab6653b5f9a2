import { listPendingApprovals as list, type PendingApproval } from '#domain/approvals.ts';
import type { ForOrganization } from './operation.ts';

/** A campaign's contacts waiting for approval, newest first (CampaignNotFound). The approvals page. */
export function listPendingApprovals(
  input: ForOrganization & { campaignId: number; take: number },
): Promise<PendingApproval[]> {
  return list(input.orgId, input.campaignId, input.take);
}
