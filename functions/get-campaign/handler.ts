import { defineEndpoint } from '#api/http/endpoint.ts';
import { getCampaign, toCampaignDetail } from '#domain/campaigns.ts';
import { getCampaignEndpoint } from '#schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id} */
export const handler = defineEndpoint(getCampaignEndpoint, async ({ orgId, path }) =>
  toCampaignDetail(await getCampaign(orgId, path.id)),
);
