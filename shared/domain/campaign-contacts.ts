import {
  ASSIGNMENT_STATUSES,
  type AssignmentStatus,
  type ENROLLMENT_STATUSES,
} from '#definitions/item-fields.ts';
import type { CampaignContact, CampaignMessage } from '#schemas/resources.ts';
import { type AssignmentRecord, firstAssignmentsOfCampaign, getAssignments } from '#store/assignments.ts';
import { contacts } from '#store/contacts.ts';
import { firstMessagesOfAssignment } from '#store/messages.ts';
import { statusCounter } from './aggregates.ts';
import { getAssignment, toCampaignContact } from './assignments.ts';
import { type CampaignRecord, getCampaign } from './campaigns.ts';
import { AssignmentNotFound } from './errors.ts';
import { listCampaignMessages, toCampaignMessage } from './messages.ts';

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
  // The campaign and the page in one round trip (docs/architecture.md, What a first request costs).
  const [campaign, records] = await Promise.all([
    getCampaign(orgId, campaignId),
    firstAssignmentsOfCampaign(orgId, campaignId, options.skip + options.take, options.status),
  ]);
  const total = contactTotal(campaign, options.status);
  if (options.skip >= total) return { data: [], total, skip: options.skip, take: options.take };
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
  // The campaign and the page in one round trip (docs/architecture.md, What a first request costs).
  const [campaign, messages] = await Promise.all([
    getCampaign(orgId, campaignId),
    listCampaignMessages(orgId, campaignId, options.skip, options.take),
  ]);
  const total = campaign.messagesCount;
  if (options.skip >= total) return { data: [], total, skip: options.skip, take: options.take };
  return {
    data: messages,
    total,
    skip: options.skip,
    take: options.take,
  };
}

export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/**
 * How many of a campaign's newest contacts (of the status asked for) a filter on their enrollment
 * reads: no index holds enrollment states, so the filter looks at a bounded window (two reads of
 * a page each at most), and says so, rather than reading the whole campaign.
 */
export const ENROLLMENT_FILTER_WINDOW = 500;

/** A found page: `window` is how many of the newest contacts were looked at, when not all were. */
export type FoundContacts = Page<CampaignContact> & { window: number | null };

/** A search of a campaign's contacts: each filter optional, a page of them. */
export interface ContactSearch {
  email?: string;
  status?: AssignmentStatus;
  enrollment?: EnrollmentStatus;
  skip: number;
  take: number;
}

/** A contact of a campaign with its message thread. */
export interface ContactThread {
  campaignName: string;
  contact: CampaignContact;
  sequenceId: number;
  messages: CampaignMessage[];
}

const matches =
  (filter: { status?: AssignmentStatus; enrollment?: EnrollmentStatus }) => (record: AssignmentRecord) =>
    (filter.status === undefined || record.status === filter.status) &&
    (filter.enrollment === undefined || record.enrollment?.status === filter.enrollment);

/**
 * The campaign's contacts that match a search: by email (the contact's own item, then its
 * assignments in this campaign: two reads), by enrollment state (the newest
 * ENROLLMENT_FILTER_WINDOW of the status), or else the contact list's page (by status).
 */
export async function findCampaignContacts(
  orgId: number,
  campaignId: number,
  options: ContactSearch,
): Promise<FoundContacts> {
  const { email, status, enrollment, skip, take } = options;
  if (email === undefined && enrollment === undefined)
    return { ...(await listCampaignContacts(orgId, campaignId, { skip, take, status })), window: null };
  const campaign = await getCampaign(orgId, campaignId);
  let found: AssignmentRecord[];
  let window: number | null = null;
  if (email !== undefined) {
    const contact = (await contacts.getByEmail(orgId, [email])).values().next().value;
    const ids = Object.entries(contact?.assignments ?? {})
      .filter(([, entry]) => entry.campaignId === campaign.campaignId)
      .map(([id]) => Number(id));
    found = ids.length === 0 ? [] : await getAssignments(orgId, ids);
    found.sort((a, b) => b.assignmentId - a.assignmentId);
  } else {
    window = ENROLLMENT_FILTER_WINDOW;
    found = await firstAssignmentsOfCampaign(orgId, campaignId, ENROLLMENT_FILTER_WINDOW, status);
  }
  const matching = found.filter(matches({ status, enrollment }));
  return {
    data: matching.slice(skip, skip + take).map(toCampaignContact),
    total: matching.length,
    skip,
    take,
    window,
  };
}

/** How many of a thread's messages are shown: a contact's thread in one sequence is short. */
export const THREAD_MESSAGES = 100;

/**
 * A contact of the campaign (its assignment) and its messages, oldest first: the campaign's
 * (CampaignNotFound), then the assignment, which must be of this campaign (AssignmentNotFound,
 * as another organization's is), then its thread's newest THREAD_MESSAGES.
 */
export async function readContactThread(
  orgId: number,
  campaignId: number,
  assignmentId: number,
): Promise<{
  campaignName: string;
  contact: CampaignContact;
  sequenceId: number;
  messages: CampaignMessage[];
}> {
  const [campaign, assignment] = await Promise.all([
    getCampaign(orgId, campaignId),
    getAssignment(orgId, assignmentId),
  ]);
  if (assignment.campaignId !== campaign.campaignId) throw new AssignmentNotFound(assignmentId);
  const messages = await firstMessagesOfAssignment(orgId, assignmentId, THREAD_MESSAGES);
  return {
    campaignName: campaign.name,
    contact: toCampaignContact(assignment),
    sequenceId: assignment.sequenceId,
    messages: messages.reverse().map(toCampaignMessage),
  };
}
