import { listCampaignAccounts } from '#shared/domain/accounts.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { listCampaignAccountsEndpoint } from '#shared/schemas/campaigns.ts';

/** GET /public/v1/campaigns/{id}/accounts — qualified accounts, highest score first. */
export const handler = defineEndpoint(listCampaignAccountsEndpoint, async ({ orgId, path, query }) => ({
  accounts: await listCampaignAccounts(orgId, path.id, query),
}));
