import * as z from 'zod/mini';
import { provider } from '#schemas/import.ts';

// The item schemas of enrollments.ts: what its store reads (and checks) items with.

export const enrollmentFailureItem = z.object({
  assignmentId: z.number(),
  campaignId: z.number(),
  connectionId: z.number(),
  provider,
  externalId: z.string(),
  error: z.string(),
  failedAt: z.string(),
});

export type EnrollmentFailureRecord = z.infer<typeof enrollmentFailureItem>;

/** A lead enrolled under a domain: the assignment it is. */
export const enrolledUnderDomainItem = z.object({ assignmentId: z.number() });
