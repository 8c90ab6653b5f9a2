import { enrollmentFailuresOf } from '#store/enrollments.ts';
import type { ForOrganization } from './operation.ts';

/** A refused enrollment as operators see it. */
export interface EnrollmentFailure {
  assignment_id: number;
  campaign_id: number;
  connection_id: number;
  provider: string;
  external_id: string;
  error: string;
  failed_at: string;
}

/**
 * 1. Read a page of the organization's refused enrollments, newest first (one Query), from the
 *    cursor of the previous page.
 * 2. Return them with the cursor of the next page.
 *
 * `outreach-admin provider failures`.
 */
export async function listEnrollmentFailures(
  input: ForOrganization & { take: number; cursor?: string },
): Promise<{ data: EnrollmentFailure[]; next: string | null }> {
  const page = await enrollmentFailuresOf(input.orgId, { take: input.take, before: input.cursor });
  return {
    data: page.records.map((record) => ({
      assignment_id: record.assignmentId,
      campaign_id: record.campaignId,
      connection_id: record.connectionId,
      provider: record.provider,
      external_id: record.externalId,
      error: record.error,
      failed_at: record.failedAt,
    })),
    next: page.next,
  };
}
