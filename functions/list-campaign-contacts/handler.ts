import { listCampaignContacts } from '#shared/domain/campaign-contacts.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { listCampaignContactsEndpoint } from '#shared/schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id}/contacts — newest assignment first, optionally by status. */
export const handler = defineEndpoint(listCampaignContactsEndpoint, async ({ orgId, path, query }) =>
  listCampaignContacts(orgId, path.id, query),
);
