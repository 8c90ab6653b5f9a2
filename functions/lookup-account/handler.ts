import { lookupAccount } from '#shared/domain/accounts.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { lookupAccountEndpoint } from '#shared/schemas/accounts.ts';

/** GET /public/v1/accounts — one account by domain and/or id, signals optionally limited to a campaign's. */
export const handler = defineEndpoint(lookupAccountEndpoint, async ({ orgId, query }) =>
  lookupAccount(orgId, { domain: query.domain, id: query.id, campaignId: query.icpId }),
);
