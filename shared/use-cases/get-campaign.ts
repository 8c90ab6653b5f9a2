import { getCampaign as readCampaign, toCampaignDetail } from '#domain/campaigns.ts';
import type { getCampaignEndpoint } from '#schemas/campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof getCampaignEndpoint;

/**
 * 1. Read the campaign (one GetItem); an unknown id, or another organization's, is CampaignNotFound.
 * 2. Return it as the campaign detail: the summary with its contact counts per status.
 *
 * GET /public/v1/campaigns/{id}; the MCP tool `get_campaign`.
 */
export async function getCampaign({
  orgId,
  path,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return toCampaignDetail(await readCampaign(orgId, path.id));
}
