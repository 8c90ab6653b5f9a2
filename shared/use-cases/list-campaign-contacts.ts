import { listCampaignContacts as readCampaignContacts } from '#domain/campaign-contacts.ts';
import type { listCampaignContactsEndpoint } from '#schemas/campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listCampaignContactsEndpoint;

/**
 * 1. Read the campaign (CampaignNotFound when it is not the organization's); its counters give the total.
 * 2. Read the page of its assignments, newest first, of the one status asked for or of all.
 * 3. Return the page: the contacts with their assignment, the total, skip and take.
 *
 * GET /public/v1/campaigns/{id}/contacts; the MCP tool `list_campaign_contacts`.
 */
export async function listCampaignContacts({
  orgId,
  path,
  query,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return readCampaignContacts(orgId, path.id, { skip: query.skip, take: query.take, status: query.status });
}
