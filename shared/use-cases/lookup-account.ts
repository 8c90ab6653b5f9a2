import { lookupAccount as readAccount } from '#domain/accounts.ts';
import type { lookupAccountEndpoint } from '#schemas/accounts.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof lookupAccountEndpoint;

/**
 * 1. Find the account by its (normalized) domain, by id, or both, which must then be the same account;
 *    with `icpId`, read that campaign too. Anything not found, another organization's included, is
 *    AccountNotFound (an unknown campaign is CampaignNotFound).
 * 2. Return the account with its own score and signals; with a campaign, only the signals named in
 *    the campaign's signal list.
 *
 * GET /public/v1/accounts; the MCP tool `lookup_account`.
 */
export async function lookupAccount({
  orgId,
  query,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return readAccount(orgId, { domain: query.domain, id: query.id, campaignId: query.icpId });
}
