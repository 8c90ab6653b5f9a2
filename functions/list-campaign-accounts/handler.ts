import { defineEndpoint } from '#api/http/endpoint.ts';
import { listCampaignAccounts } from '#domain/accounts.ts';
import { listCampaignAccountsEndpoint } from '#schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id}/accounts — qualified accounts, highest score first. */
export const handler = defineEndpoint(listCampaignAccountsEndpoint, async ({ orgId, path, query }) => ({
  accounts: await listCampaignAccounts(orgId, path.id, query),
}));
