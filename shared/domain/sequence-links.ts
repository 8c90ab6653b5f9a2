import type { Provider } from '#schemas/import.ts';
import {
  type CampaignRecord,
  campaigns,
  type SequenceLinkChange,
  type StoredSequence,
} from '#store/campaigns.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { sequenceLinks } from '#store/sequence-links.ts';
import { type TransactItem, transact } from '#store/transactions.ts';
import { findSequence } from './campaigns.ts';
import { SequenceNotFound, SequenceNotLinked, SequenceProviderMismatch } from './errors.ts';

/**
 * Sequences linked to their provider's campaign: the provider's campaign id
 * (`external_id`, Smartlead's numeric id, Instantly's UUID, lemlist's
 * `cam_…`, HeyReach's id) and the connection it runs on are kept on the
 * campaign's sequence, and a link item per provider and id finds the sequence
 * when a provider webhook names the campaign. One provider campaign is one
 * sequence: linking it to another moves it (the last link wins).
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

/**
 * Links one of the organization's sequences to the provider campaign
 * `externalId` (on the connection `connectionId`, which the caller checked is
 * of `provider`). The sequence must exist (SequenceNotFound) and be of
 * `provider` (SequenceProviderMismatch). Another sequence linked to the same
 * provider campaign loses the link, in the same transaction.
 *
 * Primary course: 1. read the organization's campaigns (one Query) 2. find the
 * sequence 3. set its link, clear the other holder's and put the link item in
 * one transaction, conditioned on the sequences being where they were read.
 * `read`: the campaigns as the caller already read them consistently
 * (readCampaigns), which the first try uses instead of reading them again;
 * a try after a conflict reads them afresh.
 */
export async function linkSequence(
  orgId: number,
  link: { sequenceId: number; connectionId: number | null; provider: Provider; externalId: string },
  read?: CampaignRecord[],
): Promise<SequenceLink> {
  return retryOnConflict(
    async (attempt) => {
      const all = attempt === 0 && read ? read : await readCampaigns(orgId);
      const { campaign, sequence } = sequenceIn(all, link.sequenceId);
      if (sequence.provider !== link.provider) {
        throw new SequenceProviderMismatch(link.sequenceId, sequence.provider, link.provider);
      }
      await transact([
        ...linkUpdates(orgId, all, link),
        sequenceLinks.put(orgId, { ...link, campaignId: campaign.campaignId }),
      ]);
      return { ...link, campaignId: campaign.campaignId };
    },
    { attempts: LINK_ATTEMPTS, baseDelayMs: 10, retryIf: () => true },
  );
}

/** The organization's campaigns read consistently (one Query), as a link's transaction is conditioned on them. */
export function readCampaigns(orgId: number): Promise<CampaignRecord[]> {
  return campaigns.list(orgId, { consistent: true });
}

/** One of the organization's sequences with its campaign (one Query of the campaigns); SequenceNotFound for none. */
export async function sequenceOf(
  orgId: number,
  sequenceId: number,
): Promise<{ campaign: CampaignRecord; sequence: StoredSequence }> {
  return sequenceIn(await campaigns.list(orgId), sequenceId);
}

/** The sequence `sequenceId` among the campaigns read, with its campaign; SequenceNotFound for none. */
export function sequenceIn(
  all: CampaignRecord[],
  sequenceId: number,
): { campaign: CampaignRecord; sequence: StoredSequence } {
  for (const campaign of all) {
    const sequence = findSequence(campaign, sequenceId);
    if (sequence) return { campaign, sequence };
  }
  throw new SequenceNotFound(sequenceId);
}

/** The link a sequence has (SequenceNotFound, SequenceNotLinked): its provider campaign id and connection. */
export async function sequenceLinkOf(orgId: number, sequenceId: number): Promise<SequenceLink> {
  const { campaign, sequence } = await sequenceOf(orgId, sequenceId);
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
      const { campaign, sequence } = sequenceIn(await readCampaigns(orgId), sequenceId);
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

/** Per campaign, one update: the linked sequence gets the link, any other holder of it loses it. */
function linkUpdates(
  orgId: number,
  all: CampaignRecord[],
  link: { sequenceId: number; connectionId: number | null; provider: Provider; externalId: string },
): TransactItem[] {
  return all.flatMap((campaign) => {
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
