import { ASSIGNMENT_STATUSES, type AssignmentStatus } from '#definitions/item-fields.ts';
import type { CampaignContact, CampaignMessage } from '#schemas/resources.ts';
import { firstAssignmentsOfCampaign } from '#store/assignments.ts';
import { statusCounter } from './aggregates.ts';
import { toCampaignContact } from './assignments.ts';
import { type CampaignRecord, getCampaign } from './campaigns.ts';
import { listCampaignMessages } from './messages.ts';

/**
 * The campaign's contact list and message history: a page read from the
 * campaign's index (newest first) and a total taken from the campaign's
 * maintained counters, never counted at read time.
 */

export interface Page<T> {
  data: T[];
  total: number;
  skip: number;
  take: number;
}

/** How many assignments of the campaign match the filter, from its counters. */
function contactTotal(campaign: CampaignRecord, status: AssignmentStatus | undefined): number {
  const statuses: readonly AssignmentStatus[] = status ? [status] : ASSIGNMENT_STATUSES;
  return statuses.reduce((total, candidate) => total + campaign[statusCounter(candidate)], 0);
}

/** A page of the campaign's contacts (assignments), newest first, optionally of one status. */
export async function listCampaignContacts(
  orgId: number,
  campaignId: number,
  options: { skip: number; take: number; status?: AssignmentStatus },
): Promise<Page<CampaignContact>> {
  const campaign = await getCampaign(orgId, campaignId);
  const total = contactTotal(campaign, options.status);
  if (options.skip >= total) return { data: [], total, skip: options.skip, take: options.take };
  const records = await firstAssignmentsOfCampaign(
    orgId,
    campaignId,
    options.skip + options.take,
    options.status,
  );
  return {
    data: records.slice(options.skip).map(toCampaignContact),
    total,
    skip: options.skip,
    take: options.take,
  };
}

/** A page of the campaign's message history, newest first, across all its sequences. */
export async function listCampaignMessagePage(
  orgId: number,
  campaignId: number,
  options: { skip: number; take: number },
): Promise<Page<CampaignMessage>> {
  const campaign = await getCampaign(orgId, campaignId);
  const total = campaign.messagesCount;
  if (options.skip >= total) return { data: [], total, skip: options.skip, take: options.take };
  return {
    data: await listCampaignMessages(orgId, campaignId, options.skip, options.take),
    total,
    skip: options.skip,
    take: options.take,
  };
}
