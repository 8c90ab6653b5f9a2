import { searchJobs, UnknownCursorError } from '#shared/domain/jobs.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { BadRequestError } from '#shared/http/errors.ts';
import { searchJobsEndpoint } from '#shared/schemas/jobs.ts';

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
