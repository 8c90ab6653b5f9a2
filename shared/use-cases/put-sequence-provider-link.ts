import { linkToProviderCampaign } from '#domain/provider-campaign-links.ts';
import type { putSequenceProviderLinkEndpoint } from '#schemas/provider-campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { toSequenceProviderLink } from './sequence-provider-link-resource.ts';

type Endpoint = typeof putSequenceProviderLinkEndpoint;

/**
 * 1. Read the connection (ProviderConnectionNotFound) and the sequence (SequenceNotFound), another
 *    organization's alike; the sequence must be of the connection's provider (SequenceProviderMismatch).
 * 2. Find the campaign in the provider's own list, read fresh with the connection's key
 *    (ProviderCampaignNotFound; ProviderConnectionKeyRefused, ProviderCampaignsUnreachable).
 * 3. Link the sequence to it: a provider campaign linked to another sequence moves to this one, and a
 *    sequence linked to another campaign is linked to this one instead.
 * 4. Return the link, with a warning when the campaign takes no leads now.
 *
 * PUT /public/v1/sequences/{sequenceId}/provider-link; `outreach-admin sequence link`; the dashboard's
 * picker on a connection's page.
 */
export async function putSequenceProviderLink(
  input: OperationInput<Endpoint>,
): Promise<OperationOutput<Endpoint>> {
  const { link, warning } = await linkToProviderCampaign(input.orgId, {
    sequenceId: input.path.sequenceId,
    connectionId: input.body.connection_id,
    campaignId: input.body.provider_campaign_id,
  });
  return { ...toSequenceProviderLink(link), ...(warning === null ? {} : { warning }) };
}
