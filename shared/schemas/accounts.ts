import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import type { EndpointSchemas } from './endpoint.ts';
import { domainString, idParam } from './params.ts';
import { account } from './resources.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 5.2 KiB in exclude-account without them).

/** GET /public/v1/accounts */
export const lookupAccountEndpoint = /* @__PURE__ */ (() =>
  ({
    query: z
      .object({
        domain: z
          .optional(domainString)
          .check(z.meta({ description: 'The company’s domain (or a URL or host of it).' })),
        id: z.optional(idParam).check(z.meta({ description: 'The account id.' })),
        icpId: z.optional(idParam).check(
          z.meta({
            description: 'A campaign (ICP) id: keep only the signals among that campaign’s signals.',
          }),
        ),
      })
      .check(
        z.refine((query) => query.domain !== undefined || query.id !== undefined, {
          message: 'domain or id is required',
          path: ['domain'],
        }),
      ),
    response: account,
  }) satisfies EndpointSchemas)();

/** POST /public/v1/accounts/exclude */
export const excludeAccountEndpoint = /* @__PURE__ */ (() =>
  ({
    body: z.object({
      company_url: domainString,
      company_name: z.optional(z.string().check(z.maxLength(500))),
      company_linkedin_url: z.optional(z.string().check(z.maxLength(2048))),
    }),
    response: z.object({ success: z.boolean() }),
  }) satisfies EndpointSchemas)();
