import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import type { EndpointSchemas } from './endpoint.ts';
import { dateTimeQuery, domainString, idParam, integerQuery } from './params.ts';
import { job } from './resources.ts';

/** The largest page of a job search. */
export const MAX_JOBS_PAGE = 500;

/** GET /public/v1/jobs/{domain} */
export const searchJobsEndpoint = {
  path: z.object({
    domain: domainString.check(z.meta({ description: 'The company’s domain (or a URL or host of it).' })),
  }),
  query: z.object({
    cursor: z.optional(idParam).check(z.meta({ description: 'The `next` of the previous page.' })),
    since: z.optional(dateTimeQuery).check(z.meta({ description: 'Only jobs first seen after this time.' })),
    take: integerQuery({ default: 100, min: 1, max: MAX_JOBS_PAGE }).check(
      z.meta({ description: 'How many to return.' }),
    ),
  }),
  response: z.object({
    domain: z.string(),
    next: z.int().check(z.meta({ description: 'Pass as `cursor` for the next page; 0 on the last page.' })),
    jobs: z.array(job),
  }),
} satisfies EndpointSchemas;
