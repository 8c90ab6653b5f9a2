import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaignMessagesEndpoint } from '#schemas/campaigns.ts';
import { listCampaignMessages } from '#use-cases/list-campaign-messages.ts';

/** GET /public/v1/campaigns/{id}/messages — message history, newest first, across all sequences. */
export const handler = defineEndpoint(listCampaignMessagesEndpoint, (input) => listCampaignMessages(input));
