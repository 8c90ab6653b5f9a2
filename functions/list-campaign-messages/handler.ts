import { listCampaignMessagePage } from '#shared/domain/campaign-contacts.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { listCampaignMessagesEndpoint } from '#shared/schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id}/messages — message history, newest first, across all sequences. */
export const handler = defineEndpoint(listCampaignMessagesEndpoint, async ({ orgId, path, query }) =>
  listCampaignMessagePage(orgId, path.id, query),
);
