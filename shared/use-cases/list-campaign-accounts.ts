import { listCampaignAccounts as readCampaignAccounts } from '#domain/accounts.ts';
import type { listCampaignAccountsEndpoint } from '#schemas/campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listCampaignAccountsEndpoint;

/**
 * 1. Read the campaign (CampaignNotFound when it is not the organization's).
 * 2. Read `take` of its qualified accounts from position `from`, highest score first (ties by id),
 *    each with its score and signals in this campaign; excluded accounts are never among them.
 * 3. Return them as the account list.
 *
 * GET /public/v1/campaigns/{id}/accounts; the MCP tool `list_campaign_accounts`.
 */
export async function listCampaignAccounts({
  orgId,
  path,
  query,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return { accounts: await readCampaignAccounts(orgId, path.id, { from: query.from, take: query.take }) };
}
