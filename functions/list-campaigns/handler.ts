import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaigns, toCampaignSummary } from '#domain/campaigns.ts';
import { listCampaignsEndpoint } from '#schemas/campaigns.ts';

/** GET /public/v1/campaigns — every campaign of the organization, by id. */
export const handler = defineEndpoint(listCampaignsEndpoint, async ({ orgId }) => ({
  campaigns: (await listCampaigns(orgId)).map(toCampaignSummary),
}));
