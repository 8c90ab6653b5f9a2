import type { SequenceInput } from '#schemas/import.ts';
import { CAMPAIGNS, type CampaignTemplate } from './campaign-templates.ts';
import { type CampaignDraft, DAY, iso } from './drafts.ts';

/** The demo campaigns with their sequences, and how to find a campaign's template and sequences. */
export interface DemoCampaigns {
  campaigns: CampaignDraft[];
  /** The campaigns' ids, in template order. */
  ids: number[];
  templateOf: (campaignId: number) => CampaignTemplate;
  sequencesOf: (campaignId: number) => SequenceInput[];
}

/** One campaign per template, created a dozen days apart in the months before `now`. */
export function demoCampaigns(
  nextId: { campaign: () => number; sequence: () => number },
  now: number,
): DemoCampaigns {
  const campaigns: CampaignDraft[] = [];
  const campaignSequences = new Map<number, SequenceInput[]>();
  for (const [index, template] of CAMPAIGNS.entries()) {
    const id = nextId.campaign();
    const sequences = template.sequences.map((sequence) => ({ id: nextId.sequence(), ...sequence }));
    campaignSequences.set(id, sequences);
    campaigns.push({
      id,
      name: template.name,
      signals: template.signals.map((signal) => signal.name),
      created_at: iso(now - (140 - index * 12) * DAY),
      sequences,
    });
  }
  const ids = campaigns.map((campaign) => campaign.id);
  return {
    campaigns,
    ids,
    templateOf: (campaignId) => CAMPAIGNS[ids.indexOf(campaignId)]!,
    sequencesOf: (campaignId) => campaignSequences.get(campaignId)!,
  };
}
