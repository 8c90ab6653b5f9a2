import { listCampaignMessagePage } from '#domain/campaign-contacts.ts';
import type { listCampaignMessagesEndpoint } from '#schemas/campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listCampaignMessagesEndpoint;

/**
 * 1. Read the campaign (CampaignNotFound when it is not the organization's); its counter gives the total.
 * 2. Read the page of its message history, newest first, across all its sequences.
 * 3. Return the page: the messages, the total, skip and take.
 *
 * GET /public/v1/campaigns/{id}/messages.
 */
export async function listCampaignMessages({
  orgId,
  path,
  query,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return listCampaignMessagePage(orgId, path.id, { skip: query.skip, take: query.take });
}
