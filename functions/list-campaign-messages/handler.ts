import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaignMessagePage } from '#domain/campaign-contacts.ts';
import { listCampaignMessagesEndpoint } from '#schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id}/messages — message history, newest first, across all sequences. */
export const handler = defineEndpoint(listCampaignMessagesEndpoint, async ({ orgId, path, query }) =>
  listCampaignMessagePage(orgId, path.id, query),
);
