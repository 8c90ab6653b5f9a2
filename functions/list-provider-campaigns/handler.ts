import { defineEndpoint } from '#api/http/endpoint.ts';
import { listProviderCampaignsEndpoint } from '#schemas/provider-campaigns.ts';
import { listProviderCampaigns } from '#use-cases/list-provider-campaigns.ts';

/** GET /public/v1/provider-connections/{id}/campaigns */
export const handler = defineEndpoint(listProviderCampaignsEndpoint, (input) => listProviderCampaigns(input));
