import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaignContacts } from '#domain/campaign-contacts.ts';
import { listCampaignContactsEndpoint } from '#schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id}/contacts — newest assignment first, optionally by status. */
export const handler = defineEndpoint(listCampaignContactsEndpoint, async ({ orgId, path, query }) =>
  listCampaignContacts(orgId, path.id, query),
);
