import { sequenceLinks } from '#store/sequence-links.ts';
import { ProviderCampaignNotFound, SequenceProviderMismatch } from './errors.ts';
import {
  findProviderCampaign,
  notTakingLeadsWarning,
  openCampaignSession,
  providerName,
} from './provider-campaigns.ts';
import { getProviderConnection } from './provider-connections.ts';
import { linkSequence, locateSequence, type SequenceLink } from './sequence-links.ts';

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
 * Nothing waits that need not: the connection and the sequence's home are
 * read at once; then the provider's session opens (its client, the key), the
 * provider campaign id's link is read and the sequence's campaign arrives, all
 * at once; and the link's transaction is conditioned on that one consistent
 * read instead of a second (linkSequence reads again only after a conflict).
 * The organization's other campaigns are never read (sequence homes).
 */
export async function linkToProviderCampaign(
  orgId: number,
  link: { sequenceId: number; connectionId: number; campaignId: string },
): Promise<{ link: SequenceLink; warning: string | null }> {
  const { sequenceId, connectionId, campaignId } = link;
  const located = locateSequence(orgId, sequenceId, { consistent: true });
  // Its error is thrown below, once the connection's has had its turn: a missing connection is named first.
  located.catch(() => undefined);
  const connection = await getProviderConnection(orgId, connectionId);
  const session = openCampaignSession(connection);
  // Thrown by findProviderCampaign, if the sequence is found and of the provider; else nothing waits on it.
  session.catch(() => undefined);
  // The provider's campaign ids are matched exactly (findProviderCampaign), so its link is this id's.
  const holder = sequenceLinks.get(orgId, connection.provider, campaignId, { consistent: true });
  holder.catch(() => undefined);
  const { sequence } = await located;
  if (sequence.provider !== connection.provider) {
    throw new SequenceProviderMismatch(sequenceId, sequence.provider, connection.provider);
  }
  const campaign = await findProviderCampaign(connection, campaignId, session);
  if (!campaign) throw new ProviderCampaignNotFound(providerName(connection), campaignId, connectionId);
  const linked = await linkSequence(
    orgId,
    { sequenceId, connectionId, provider: connection.provider, externalId: campaign.id },
    { located: await located, holder: await holder },
  );
  return { link: linked, warning: notTakingLeadsWarning(connection, campaign) };
}
