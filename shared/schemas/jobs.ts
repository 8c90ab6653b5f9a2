import { z } from 'zod';
import type { EndpointSchemas } from './endpoint.ts';
import { dateTimeQuery, domainString, idParam, integerQuery } from './params.ts';
import { job } from './resources.ts';

/** The largest page of a job search. */
export const MAX_JOBS_PAGE = 500;

/** GET /public/v1/jobs/{domain} */
export const searchJobsEndpoint = {
  path: z.object({
    domain: domainString.meta({ description: 'The company’s domain (or a URL or host of it).' }),
  }),
  query: z.object({
    cursor: idParam.optional().meta({ description: 'The `next` of the previous page.' }),
    since: dateTimeQuery.optional().meta({ description: 'Only jobs first seen after this time.' }),
    take: integerQuery({ default: 100, min: 1, max: MAX_JOBS_PAGE }).meta({
      description: 'How many to return.',
    }),
  }),
  response: z.object({
    domain: z.string(),
    next: z.number().int().meta({ description: 'Pass as `cursor` for the next page; 0 on the last page.' }),
    jobs: z.array(job),
  }),
} satisfies EndpointSchemas;
