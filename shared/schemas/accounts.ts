import { z } from 'zod';
import type { EndpointSchemas } from '../http/endpoint.ts';
import { domainString, idParam } from './params.ts';
import { account } from './resources.ts';

/** GET /public/v1/accounts */
export const lookupAccountEndpoint = {
  query: z
    .object({ domain: domainString.optional(), id: idParam.optional(), icpId: idParam.optional() })
    .refine((query) => query.domain !== undefined || query.id !== undefined, {
      message: 'domain or id is required',
      path: ['domain'],
    }),
  response: account,
} satisfies EndpointSchemas;

/** POST /public/v1/accounts/exclude */
export const excludeAccountEndpoint = {
  body: z.object({
    company_url: domainString,
    company_name: z.string().max(500).optional(),
    company_linkedin_url: z.string().max(2048).optional(),
  }),
  response: z.object({ success: z.boolean() }),
} satisfies EndpointSchemas;
