import { getProviderConnection } from '#domain/provider-connections.ts';
import type { listProviderCampaignsEndpoint } from '#schemas/provider-campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listProviderCampaignsEndpoint;

/**
 * The provider's client, its transport and the key's opening load with the listing
 * (docs/architecture.md, Bundles), once: every `import()` is a resolution (under tsx, a round trip
 * to its loader thread), which a warm function need not repeat on every request.
 */
let providerCampaigns: Promise<typeof import('#domain/provider-campaigns.ts')> | undefined;

/**
 * 1. Read the connection (ProviderConnectionNotFound for another organization's).
 * 2. Read a page of the provider's own list of campaigns with the connection's key, from the cursor
 *    (the provider's page may come from the warm function's minute-long cache).
 * 3. Return them with the cursor of the next page.
 *
 * GET /public/v1/provider-connections/{id}/campaigns; `outreach-admin provider campaigns`; the
 * dashboard's picker.
 */
export async function listProviderCampaigns(
  input: OperationInput<Endpoint>,
): Promise<OperationOutput<Endpoint>> {
  const connection = await getProviderConnection(input.orgId, input.path.id);
  providerCampaigns ??= import('#domain/provider-campaigns.ts');
  const { listProviderCampaigns: list } = await providerCampaigns;
  const page = await list(connection, input.query.cursor ?? null);
  return {
    data: page.campaigns.map((campaign) => ({
      id: campaign.id,
      name: campaign.name,
      status: campaign.status,
      accepts_leads: campaign.acceptsLeads,
    })),
    next: page.next,
  };
}
