import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaignsEndpoint } from '#schemas/campaigns.ts';
import { listCampaigns } from '#use-cases/list-campaigns.ts';

/** GET /public/v1/campaigns — every campaign of the organization, by id. */
export const handler = defineEndpoint(listCampaignsEndpoint, (input) => listCampaigns(input));
