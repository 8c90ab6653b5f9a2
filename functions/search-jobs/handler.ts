import { defineEndpoint } from '#api/http/endpoint.ts';
import { searchJobs } from '#domain/jobs.ts';
import { searchJobsEndpoint } from '#schemas/jobs.ts';

/** GET /public/v1/jobs/{domain} — job openings, newest first, cursor-paged. */
export const handler = defineEndpoint(searchJobsEndpoint, ({ orgId, path, query }) =>
  searchJobs(orgId, path.domain, query),
);
