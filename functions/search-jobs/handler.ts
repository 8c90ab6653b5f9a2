import { defineEndpoint } from '#api/http/endpoint.ts';
import { BadRequestError } from '#api/http/errors.ts';
import { searchJobs, UnknownCursorError } from '#domain/jobs.ts';
import { searchJobsEndpoint } from '#schemas/jobs.ts';

/** GET /public/v1/jobs/{domain} — job openings, newest first, cursor-paged. */
export const handler = defineEndpoint(searchJobsEndpoint, async ({ orgId, path, query }) => {
  try {
    return await searchJobs(orgId, path.domain, query);
  } catch (error) {
    if (error instanceof UnknownCursorError)
      throw new BadRequestError(`Invalid query parameter 'cursor': ${error.message}`);
    throw error;
  }
});
