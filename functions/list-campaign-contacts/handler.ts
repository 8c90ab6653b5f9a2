import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaignContactsEndpoint } from '#schemas/campaigns.ts';
import { listCampaignContacts } from '#use-cases/list-campaign-contacts.ts';

/** GET /public/v1/campaigns/{id}/contacts — newest assignment first, optionally by status. */
export const handler = defineEndpoint(listCampaignContactsEndpoint, (input) => listCampaignContacts(input));
