import { z } from 'zod';
import type { EndpointSchemas } from './endpoint.ts';
import { domainString, idParam } from './params.ts';
import { account } from './resources.ts';

/** GET /public/v1/accounts */
export const lookupAccountEndpoint = {
  query: z
    .object({
      domain: domainString.optional().meta({ description: 'The company’s domain (or a URL or host of it).' }),
      id: idParam.optional().meta({ description: 'The account id.' }),
      icpId: idParam
        .optional()
        .meta({ description: 'A campaign (ICP) id: keep only the signals among that campaign’s signals.' }),
    })
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
