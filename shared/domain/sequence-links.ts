import type { Provider } from '#schemas/import.ts';
import {
  type CampaignRecord,
  campaigns,
  type SequenceLinkChange,
  type StoredSequence,
} from '#store/campaigns.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { sequenceHomes } from '#store/sequence-homes.ts';
import { type SequenceLinkRecord, sequenceLinks } from '#store/sequence-links.ts';
import { type TransactItem, transact } from '#store/transactions.ts';
import { findSequence } from './campaigns.ts';
import { SequenceNotFound, SequenceNotLinked, SequenceProviderMismatch } from './errors.ts';

/**
 * Sequences linked to their provider's campaign: the provider's campaign id
 * (`external_id`, Smartlead's numeric id, Instantly's UUID, lemlist's
 * `cam_…`, HeyReach's id) and the connection it runs on are kept on the
 * campaign's sequence, and a link item per provider and id finds the sequence
 * when a provider webhook names the campaign. One provider campaign is one
 * sequence: linking it to another moves it (the last link wins). A route
 * naming a sequence finds its campaign through the sequence's home
 * (shared/store/sequence-homes.ts).
 */

/** A sequence's link to its provider campaign. */
export interface SequenceLink {
  campaignId: number;
  sequenceId: number;
  provider: Provider;
  externalId: string;
  connectionId: number | null;
}

/** The sequence a provider campaign is linked to, with its campaign. */
export interface LinkedSequence {
  campaign: CampaignRecord;
  sequence: StoredSequence;
  connectionId: number | null;
}

/** Tries of a link whose campaign changed between the read and the write (a concurrent import or link). */
const LINK_ATTEMPTS = 5;

/** A sequence with the campaign that holds it. */
export interface LocatedSequence {
  campaign: CampaignRecord;
  sequence: StoredSequence;
}

/**
 * What a link's transaction is conditioned on, read consistently: the
 * sequence with its campaign, and the link the provider campaign id has now
 * (null for none), whose sequence loses it.
 */
export interface LinkState {
  located: LocatedSequence;
  holder: SequenceLinkRecord | null;
}

/**
 * Links one of the organization's sequences to the provider campaign
 * `externalId` (on the connection `connectionId`, which the caller checked is
 * of `provider`). The sequence must exist (SequenceNotFound) and be of
 * `provider` (SequenceProviderMismatch). The sequence that held the provider
 * campaign (its link item names it) loses it, in the same transaction.
 *
 * Primary course: 1. read the sequence with its campaign (locateSequence) and
 * the id's link, at once 2. read the holder's campaign, when it is another
 * 3. set the sequence's link, clear the holder's and put the link item in one
 * transaction, conditioned on the sequences being where they were read and
 * the link still naming the holder read. `read`: that state as the caller
 * already read it consistently (locateSequence and the id's link, as
 * readLinkState reads them), which the first try uses instead of reading it
 * again; a try after a conflict reads it afresh.
 */
export async function linkSequence(
  orgId: number,
  link: { sequenceId: number; connectionId: number | null; provider: Provider; externalId: string },
  read?: LinkState,
): Promise<SequenceLink> {
  return retryOnConflict(
    async (attempt) => {
      const { located, holder } = attempt === 0 && read ? read : await readLinkState(orgId, link);
      const { campaign, sequence } = located;
      if (sequence.provider !== link.provider) {
        throw new SequenceProviderMismatch(link.sequenceId, sequence.provider, link.provider);
      }
      const holderCampaign =
        holder && holder.campaignId !== campaign.campaignId
          ? await campaigns.get(orgId, holder.campaignId, { consistent: true })
          : null;
      await transact([
        ...linkUpdates(orgId, holderCampaign ? [campaign, holderCampaign] : [campaign], link),
        sequenceLinks.put(
          orgId,
          { ...link, campaignId: campaign.campaignId },
          { replacing: holder && { sequenceId: holder.sequenceId } },
        ),
      ]);
      return { ...link, campaignId: campaign.campaignId };
    },
    { attempts: LINK_ATTEMPTS, baseDelayMs: 10, retryIf: () => true },
  );
}

/**
 * The state a link of `sequenceId` to the provider campaign `externalId` is conditioned on, read
 * consistently: the sequence with its campaign (SequenceNotFound) and the id's link, at once.
 */
async function readLinkState(
  orgId: number,
  link: { sequenceId: number; provider: Provider; externalId: string },
): Promise<LinkState> {
  const holder = sequenceLinks.get(orgId, link.provider, link.externalId, { consistent: true });
  // Its error is thrown below, once the sequence's has had its turn.
  holder.catch(() => undefined);
  const located = await locateSequence(orgId, link.sequenceId, { consistent: true });
  return { located, holder: await holder };
}

/**
 * One of the organization's sequences with its campaign (SequenceNotFound):
 * its home's GetItem, then its campaign's Query (the item and its counter
 * shards). A sequence without a home (imported before homes were kept), or
 * whose home's campaign no longer holds it (a later import moved or dropped
 * it), is looked for in every campaign of the organization (one Query of them
 * all), as is a sequence that does not exist. `consistent` for a
 * read-modify-write.
 */
export async function locateSequence(
  orgId: number,
  sequenceId: number,
  options: { consistent?: boolean } = {},
): Promise<LocatedSequence> {
  const home = await sequenceHomes.campaignOf(orgId, sequenceId, options);
  if (home !== null) {
    const campaign = await campaigns.get(orgId, home, options);
    const sequence = campaign && findSequence(campaign, sequenceId);
    if (campaign && sequence) return { campaign, sequence };
  }
  return sequenceIn(await campaigns.list(orgId, options), sequenceId);
}

/** The sequence `sequenceId` among the campaigns read, with its campaign; SequenceNotFound for none. */
function sequenceIn(all: CampaignRecord[], sequenceId: number): LocatedSequence {
  for (const campaign of all) {
    const sequence = findSequence(campaign, sequenceId);
    if (sequence) return { campaign, sequence };
  }
  throw new SequenceNotFound(sequenceId);
}

/** The link a sequence has (SequenceNotFound, SequenceNotLinked): its provider campaign id and connection. */
export async function sequenceLinkOf(orgId: number, sequenceId: number): Promise<SequenceLink> {
  const { campaign, sequence } = await locateSequence(orgId, sequenceId);
  return linkOf(campaign, sequence);
}

function linkOf(campaign: CampaignRecord, sequence: StoredSequence): SequenceLink {
  if (sequence.external_id === null) throw new SequenceNotLinked(sequence.id);
  return {
    campaignId: campaign.campaignId,
    sequenceId: sequence.id,
    provider: sequence.provider,
    externalId: sequence.external_id,
    connectionId: sequence.connection_id,
  };
}

/**
 * Unlinks a sequence from its provider campaign (SequenceNotFound, SequenceNotLinked) and returns the
 * link it had: its `external_id` and connection are cleared and the link item deleted in one
 * transaction, conditioned on the sequence being where it was read. Webhooks naming that provider
 * campaign match nothing from then on, and nothing more is enrolled through it; leads already at the
 * provider stay there.
 */
export async function unlinkSequence(orgId: number, sequenceId: number): Promise<SequenceLink> {
  return retryOnConflict(
    async () => {
      const { campaign, sequence } = await locateSequence(orgId, sequenceId, { consistent: true });
      const link = linkOf(campaign, sequence);
      const index = campaign.sequences.indexOf(sequence);
      await transact([
        campaigns.linkSequences(orgId, campaign.campaignId, [
          { index, sequenceId, externalId: null, connectionId: null },
        ]),
        sequenceLinks.remove(orgId, { provider: link.provider, externalId: link.externalId, sequenceId }),
      ]);
      return link;
    },
    { attempts: LINK_ATTEMPTS, baseDelayMs: 10, retryIf: () => true },
  );
}

/** Per campaign read, one update: the linked sequence gets the link, any other holder of it loses it. */
function linkUpdates(
  orgId: number,
  read: CampaignRecord[],
  link: { sequenceId: number; connectionId: number | null; provider: Provider; externalId: string },
): TransactItem[] {
  return read.flatMap((campaign) => {
    const changes = campaign.sequences.flatMap((sequence, index): SequenceLinkChange[] => {
      if (sequence.id === link.sequenceId) {
        return [
          { index, sequenceId: sequence.id, externalId: link.externalId, connectionId: link.connectionId },
        ];
      }
      const holder = sequence.provider === link.provider && sequence.external_id === link.externalId;
      return holder ? [{ index, sequenceId: sequence.id, externalId: null, connectionId: null }] : [];
    });
    return changes.length > 0 ? [campaigns.linkSequences(orgId, campaign.campaignId, changes)] : [];
  });
}

/**
 * The sequence linked to a provider campaign, with its campaign and
 * connection: one GetItem of the link, one of the campaign. Null when none
 * is, or when the link is stale (the sequence no longer carries the id, after
 * a relink or a re-import).
 */
export async function findLinkedSequence(
  orgId: number,
  provider: Provider,
  externalId: string,
): Promise<LinkedSequence | null> {
  const link = await sequenceLinks.get(orgId, provider, externalId);
  if (!link) return null;
  const campaign = await campaigns.get(orgId, link.campaignId);
  const sequence = campaign && findSequence(campaign, link.sequenceId);
  if (!campaign || !sequence || sequence.provider !== provider || sequence.external_id !== externalId) {
    return null;
  }
  return { campaign, sequence, connectionId: sequence.connection_id };
}
