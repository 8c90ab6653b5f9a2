import { getCampaign, toCampaignDetail } from '#shared/domain/campaigns.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { getCampaignEndpoint } from '#shared/schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id} */
export const handler = defineEndpoint(getCampaignEndpoint, async ({ orgId, path }) =>
  toCampaignDetail(await getCampaign(orgId, path.id)),
);
