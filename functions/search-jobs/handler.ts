import { defineEndpoint } from '#api/http/endpoint.ts';
import { searchJobsEndpoint } from '#schemas/jobs.ts';
import { searchJobs } from '#use-cases/search-jobs.ts';

/** GET /public/v1/jobs/{domain} — job openings, newest first, cursor-paged. */
export const handler = defineEndpoint(searchJobsEndpoint, (input) => searchJobs(input));
