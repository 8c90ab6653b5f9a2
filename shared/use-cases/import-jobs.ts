import { upsertJobs } from '#domain/jobs.ts';
import { getOrganization } from '#domain/organizations.ts';
import type { JobInput } from '#schemas/import.ts';
import type { ForOrganization } from './operation.ts';

/** Job openings validated by the import's job schema, each with its normalized domain. */
export interface JobsImport extends ForOrganization {
  readonly jobs: readonly (JobInput & { domain: string })[];
}

/**
 * 1. The organization the operator names must exist (OrganizationNotFound).
 * 2. Write the jobs, each replacing the job of its id (importing a file again changes nothing).
 * 3. Return how many jobs of how many domains were imported.
 *
 * `outreach-admin jobs import`.
 */
export async function importJobs({
  orgId,
  jobs,
}: JobsImport): Promise<{ orgId: number; jobs: number; domains: number }> {
  await getOrganization(orgId);
  await upsertJobs(orgId, [...jobs]);
  return { orgId, jobs: jobs.length, domains: new Set(jobs.map((job) => job.domain)).size };
}
