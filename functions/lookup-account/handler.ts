import { defineEndpoint } from '#api/http/endpoint.ts';
import { lookupAccount } from '#domain/accounts.ts';
import { lookupAccountEndpoint } from '#schemas/accounts.ts';

/** GET /public/v1/accounts — one account by domain and/or id, signals optionally limited to a campaign's. */
export const handler = defineEndpoint(lookupAccountEndpoint, async ({ orgId, query }) =>
  lookupAccount(orgId, { domain: query.domain, id: query.id, campaignId: query.icpId }),
);
