import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaignAccountsEndpoint } from '#schemas/campaigns.ts';
import { listCampaignAccounts } from '#use-cases/list-campaign-accounts.ts';

/** GET /public/v1/campaigns/{id}/accounts — qualified accounts, highest score first. */
export const handler = defineEndpoint(listCampaignAccountsEndpoint, (input) => listCampaignAccounts(input));
