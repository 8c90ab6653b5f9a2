import { ProviderCampaignNotFound, SequenceProviderMismatch } from './errors.ts';
import { findProviderCampaign, notTakingLeadsWarning, providerName } from './provider-campaigns.ts';
import { getProviderConnection } from './provider-connections.ts';
import { linkSequence, type SequenceLink, sequenceOf } from './sequence-links.ts';

/*
 * Linking a sequence to a campaign of the provider's own list, in a module the
 * link's use case imports with `import()`: the connection's and campaigns'
 * stores, the provider's client and the key's opening load with a link
 * request, and a cold start of the function reads none of them
 * (docs/architecture.md, Bundles).
 */

/**
 * Links `sequenceId` to the provider campaign `campaignId` of the connection
 * `connectionId`: the connection (ProviderConnectionNotFound) and the sequence
 * (SequenceNotFound) must be the organization's and of one provider
 * (SequenceProviderMismatch), and the campaign in the provider's list, read
 * afresh (ProviderCampaignNotFound). Returns the link, and a warning when the
 * campaign takes no leads now.
 */
export async function linkToProviderCampaign(
  orgId: number,
  link: { sequenceId: number; connectionId: number; campaignId: string },
): Promise<{ link: SequenceLink; warning: string | null }> {
  const { sequenceId, connectionId, campaignId } = link;
  const connection = await getProviderConnection(orgId, connectionId);
  const { sequence } = await sequenceOf(orgId, sequenceId);
  if (sequence.provider !== connection.provider) {
    throw new SequenceProviderMismatch(sequenceId, sequence.provider, connection.provider);
  }
  const campaign = await findProviderCampaign(connection, campaignId);
  if (!campaign) throw new ProviderCampaignNotFound(providerName(connection), campaignId, connectionId);
  const linked = await linkSequence(orgId, {
    sequenceId,
    connectionId,
    provider: connection.provider,
    externalId: campaign.id,
  });
  return { link: linked, warning: notTakingLeadsWarning(connection, campaign) };
}
