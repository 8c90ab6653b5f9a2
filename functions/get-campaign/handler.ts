import { defineEndpoint } from '#api/http/endpoint.ts';
import { getCampaignEndpoint } from '#schemas/campaigns.ts';
import { getCampaign } from '#use-cases/get-campaign.ts';

/** GET /public/v1/campaigns/{id} */
export const handler = defineEndpoint(getCampaignEndpoint, (input) => getCampaign(input));
