import { searchJobs as readJobs } from '#domain/jobs.ts';
import type { searchJobsEndpoint } from '#schemas/jobs.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof searchJobsEndpoint;

/**
 * 1. With a cursor, find the job it names in this domain's search (UnknownCursor when it is none).
 * 2. Read the next `take` jobs of the domain, newest `first_seen_at` first, only those first seen
 *    after `since` when given, and one more to know whether another page follows.
 * 3. Return the page with `next`: the cursor of the following page, 0 on the last.
 *
 * GET /public/v1/jobs/{domain}; the MCP tool `search_jobs`.
 */
export async function searchJobs({
  orgId,
  path,
  query,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return readJobs(orgId, path.domain, { take: query.take, cursor: query.cursor, since: query.since });
}
