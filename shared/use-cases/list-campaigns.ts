import { listCampaigns as readCampaigns, toCampaignSummary } from '#domain/campaigns.ts';
import type { listCampaignsEndpoint } from '#schemas/campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listCampaignsEndpoint;

/**
 * 1. Read every campaign of the organization, by id (one Query).
 * 2. Return each as a campaign summary: providers, sequences, steps and stats.
 *
 * GET /public/v1/campaigns; the MCP tool `list_campaigns`.
 */
export async function listCampaigns({ orgId }: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return { campaigns: (await readCampaigns(orgId)).map(toCampaignSummary) };
}
