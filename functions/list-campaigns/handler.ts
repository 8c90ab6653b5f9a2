import { listCampaigns, toCampaignSummary } from '#shared/domain/campaigns.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { listCampaignsEndpoint } from '#shared/schemas/campaigns.ts';

/** GET /public/v1/campaigns — every campaign of the organization, by id. */
export const handler = defineEndpoint(listCampaignsEndpoint, async ({ orgId }) => ({
  campaigns: (await listCampaigns(orgId)).map(toCampaignSummary),
}));
