import { ProviderCampaignNotFound, SequenceProviderMismatch } from './errors.ts';
import {
  findProviderCampaign,
  notTakingLeadsWarning,
  openCampaignSession,
  providerName,
} from './provider-campaigns.ts';
import { getProviderConnection } from './provider-connections.ts';
import { linkSequence, readCampaigns, type SequenceLink, sequenceIn } from './sequence-links.ts';

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
 *
 * Nothing waits that need not: the connection and the campaigns are read at
 * once, the provider's session opens (its client, the key) while the campaigns
 * are still on their way, and the link's transaction is conditioned on that
 * one consistent read of the campaigns instead of a second (linkSequence
 * reads them again only after a conflict). Three round trips to the table
 * and the provider's list, where there were five.
 */
export async function linkToProviderCampaign(
  orgId: number,
  link: { sequenceId: number; connectionId: number; campaignId: string },
): Promise<{ link: SequenceLink; warning: string | null }> {
  const { sequenceId, connectionId, campaignId } = link;
  const campaignsRead = readCampaigns(orgId);
  // Its error is thrown below, once the connection's has had its turn: a missing connection is named first.
  campaignsRead.catch(() => undefined);
  const connection = await getProviderConnection(orgId, connectionId);
  const session = openCampaignSession(connection);
  // Thrown by findProviderCampaign, if the sequence is found and of the provider; else nothing waits on it.
  session.catch(() => undefined);
  const all = await campaignsRead;
  const { sequence } = sequenceIn(all, sequenceId);
  if (sequence.provider !== connection.provider) {
    throw new SequenceProviderMismatch(sequenceId, sequence.provider, connection.provider);
  }
  const campaign = await findProviderCampaign(connection, campaignId, session);
  if (!campaign) throw new ProviderCampaignNotFound(providerName(connection), campaignId, connectionId);
  const linked = await linkSequence(
    orgId,
    { sequenceId, connectionId, provider: connection.provider, externalId: campaign.id },
    all,
  );
  return { link: linked, warning: notTakingLeadsWarning(connection, campaign) };
}
