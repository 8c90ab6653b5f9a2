import type { AssignmentStatus, CampaignContact } from '#schemas/resources.ts';
import type { SnippetVariables } from '#schemas/variables.ts';
import { type AssignmentRecord, assignments, type EnrollTarget } from '#store/assignments.ts';
import type { SequenceRef } from '#store/campaigns.ts';
import { campaigns } from '#store/campaigns.ts';
import { conflictDelay, retryOnConflict } from '#store/conflicts.ts';
import { type ContactAssignmentEntry, type ContactRecord, contactKey, contacts } from '#store/contacts.ts';
import { analyticsShardCounters } from '#store/organizations.ts';
import {
  failedSubjects,
  MAX_TRANSACTION_ITEMS,
  type TransactItem,
  TransactionConflictError,
  transact,
} from '#store/transactions.ts';
import {
  type AssignmentFacts,
  accumulate,
  assignmentDeltas,
  type CampaignCounts,
  type OrganizationCounts,
} from './aggregates.ts';
import { getContact } from './contacts.ts';
import { enrollmentOutboxWrite } from './enrollment.ts';
import { AssignmentNotFound, CampaignNotFound } from './errors.ts';

/**
 * Assignments: a contact in one of a campaign's sequences. Creation keeps the
 * one-assignment-per-contact-per-sequence rule with a conditional write on the
 * contact's summary, counts the change in the contact's eligibility version,
 * and adds the new assignment's contribution to the campaign and organization
 * counters in the same transaction. A raw push also has the write expect the
 * version it judged the contact at (`guarded`), so that of two pushes judging
 * the same contact at once only one acts on that judgement.
 */

/** An assignment as stored (shared/store/assignments.ts). */
export type { AssignmentRecord };

/** What creating an assignment needs. */
export interface NewAssignment {
  assignmentId: number;
  sequence: SequenceRef;
  contact: ContactRecord;
  status: AssignmentStatus;
  createdAt: string;
  approvedAt?: string | null;
  sequencedAt?: string | null;
  completedAt?: string | null;
  bouncedAt?: string | null;
  unsubscribedAt?: string | null;
  variables?: SnippetVariables;
  /** A scheduled assignment to enroll in its sequence's provider campaign (docs/providers.md#enrollment). */
  enrollTarget?: EnrollTarget | null;
}

/** The facts of a record that the counters depend on. */
export const factsOf = (record: AssignmentFacts): AssignmentFacts => ({
  status: record.status,
  sentCount: record.sentCount,
  openCount: record.openCount,
  clickCount: record.clickCount,
  contactBlocked: record.contactBlocked,
  positiveReplied: record.positiveReplied,
});

/** CampaignContact, the contact list's item. */
export function toCampaignContact(record: AssignmentRecord): CampaignContact {
  return {
    assignment_id: record.assignmentId,
    contact: record.contact,
    status: record.status,
    approved_at: record.approvedAt,
    sequenced_at: record.sequencedAt,
    completed_at: record.completedAt,
    bounced_at: record.bouncedAt,
    unsubscribed_at: record.unsubscribedAt,
    enrollment: record.enrollment && {
      status: record.enrollment.status,
      error: record.enrollment.error,
      updated_at: record.enrollment.updatedAt,
    },
  };
}

/** The contact-summary entry of an assignment. */
export const summaryEntry = (record: {
  campaignId: number;
  sequenceId: number;
  channel: ContactAssignmentEntry['channel'];
  status: AssignmentStatus;
  completedAt: string | null;
}): ContactAssignmentEntry => ({
  campaignId: record.campaignId,
  sequenceId: record.sequenceId,
  channel: record.channel,
  status: record.status,
  completedAt: record.completedAt,
});

/** Reads one of the organization's assignments (consistently); another organization's is not found. */
export async function getAssignment(orgId: number, assignmentId: number): Promise<AssignmentRecord> {
  const assignment = await assignments.get(orgId, assignmentId);
  if (!assignment) throw new AssignmentNotFound(assignmentId);
  return assignment;
}

const ITEMS_PER_ASSIGNMENT = 2;
/** Leaves room for the campaign and organization counter updates. */
const ASSIGNMENTS_PER_TRANSACTION = Math.floor((MAX_TRANSACTION_ITEMS - 2) / ITEMS_PER_ASSIGNMENT);
/** With assignments to enroll at a provider, room for the enrollment queue's outbox item too. */
const ENROLLING_ASSIGNMENTS_PER_TRANSACTION = Math.floor((MAX_TRANSACTION_ITEMS - 3) / ITEMS_PER_ASSIGNMENT);

/** The outcome of creating one assignment. */
export type CreateOutcome =
  | { outcome: 'created'; assignmentId: number }
  | { outcome: 'exists'; reason: 'id-taken' | 'sequence-taken' }
  /** Guarded creation only: the contact changed since it was read; judge it again as it is now. */
  | { outcome: 'contact-changed' };

/** How often a transaction cancelled by concurrent ones (no condition failed) is tried again. */
export const MAX_CONFLICT_RETRIES = 6;
/** The first wait before such a retry is random up to this long, doubling with each retry. */
const CONFLICT_BASE_DELAY_MS = 10;

/** Waits a random while, growing with the attempt, so that transactions that collided spread out. */
export const backoff = (attempt: number): Promise<void> => conflictDelay(attempt, CONFLICT_BASE_DELAY_MS);

function chunkWithDistinctContacts(inputs: NewAssignment[]): NewAssignment[][] {
  const chunks: NewAssignment[][] = [];
  let current: NewAssignment[] = [];
  let contacts = new Set<string>();
  const limit = inputs.some((input) => input.enrollTarget)
    ? ENROLLING_ASSIGNMENTS_PER_TRANSACTION
    : ASSIGNMENTS_PER_TRANSACTION;
  for (const input of inputs) {
    const key = JSON.stringify(contactKey(0, input.contact));
    if (current.length >= limit || contacts.has(key)) {
      chunks.push(current);
      current = [];
      contacts = new Set();
    }
    current.push(input);
    contacts.add(key);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The writes that create assignments in one campaign: each assignment with its
 * contact-summary entry, then the counters (the campaign's first), then the
 * enrollment queue's outbox item when some are to be enrolled.
 */
export function creationWrites(
  orgId: number,
  campaignId: number,
  inputs: NewAssignment[],
  guarded: boolean,
): TransactItem[] {
  const campaignDelta: Partial<CampaignCounts> = {};
  const organizationDelta: Partial<OrganizationCounts> = {};
  const writes: TransactItem[] = [];
  for (const input of inputs) {
    const completedAt = input.completedAt ?? null;
    const deltas = assignmentDeltas(null, {
      status: input.status,
      sentCount: 0,
      openCount: 0,
      clickCount: 0,
      contactBlocked: input.contact.blocked,
      positiveReplied: false,
    });
    accumulate(campaignDelta, deltas.campaign);
    accumulate(organizationDelta, deltas.organization);
    writes.push(
      assignments.putNew(orgId, {
        assignmentId: input.assignmentId,
        campaignId,
        sequence: input.sequence,
        contact: input.contact,
        status: input.status,
        createdAt: input.createdAt,
        approvedAt: input.approvedAt ?? null,
        sequencedAt: input.sequencedAt ?? null,
        completedAt,
        bouncedAt: input.bouncedAt ?? null,
        unsubscribedAt: input.unsubscribedAt ?? null,
        variables: input.variables ?? new Map(),
        enrollTarget: input.enrollTarget ?? null,
      }),
      contacts.addAssignment(
        orgId,
        input.contact,
        input.assignmentId,
        summaryEntry({
          campaignId,
          sequenceId: input.sequence.id,
          channel: input.sequence.channel,
          status: input.status,
          completedAt,
        }),
        { guarded },
      ),
    );
  }
  // On the campaign's item, whose existence the update checks; the organization's on the shard of the first.
  writes.push(campaigns.counters(orgId, campaignId, campaignDelta, { mustExist: true })!);
  const organizationWrite =
    inputs.length > 0 ? analyticsShardCounters(orgId, inputs[0]!.assignmentId, organizationDelta) : null;
  if (organizationWrite) writes.push(organizationWrite);
  const toEnroll = inputs.filter((input) => input.enrollTarget).map((input) => input.assignmentId);
  if (toEnroll.length > 0) writes.push(enrollmentOutboxWrite(orgId, toEnroll));
  return writes;
}

/**
 * Creates assignments in one campaign, in transactions of up to 49, each with
 * its contact-summary entry and the counters. An assignment whose id exists
 * already, or whose contact already has one in the sequence, is not created
 * (reported as `exists`); concurrent callers cannot both create one.
 *
 * `guarded` (a raw push): each contact must also be at the eligibility version
 * it was read at, else its assignment is not created (`contact-changed`), so a
 * caller that judged the contact can judge it again before it writes.
 */
export async function createAssignments(
  orgId: number,
  campaignId: number,
  inputs: NewAssignment[],
  options: { guarded?: boolean } = {},
): Promise<CreateOutcome[]> {
  const guarded = options.guarded ?? false;
  const outcomes = new Map<number, CreateOutcome>();
  for (const chunk of chunkWithDistinctContacts(inputs)) {
    await createChunk(orgId, campaignId, chunk, guarded, outcomes);
  }
  return inputs.map((input) => outcomes.get(input.assignmentId)!);
}

/**
 * One transaction for the chunk. When some of its conditions fail, those
 * assignments are settled on their own and the rest are tried again together
 * at once, so one lost race does not cost a transaction per assignment of the
 * chunk; a transaction cancelled by concurrent ones is tried again shortly.
 */
async function createChunk(
  orgId: number,
  campaignId: number,
  chunk: NewAssignment[],
  guarded: boolean,
  outcomes: Map<number, CreateOutcome>,
): Promise<void> {
  let pending = chunk;
  await retryOnConflict(
    async () => {
      while (pending.length > 0) {
        try {
          await transact(creationWrites(orgId, campaignId, pending, guarded));
          for (const input of pending)
            outcomes.set(input.assignmentId, { outcome: 'created', assignmentId: input.assignmentId });
          pending = [];
        } catch (error) {
          if (!(error instanceof TransactionConflictError)) throw error;
          if (error.failed.has('campaign-not-found')) throw new CampaignNotFound(campaignId);
          const takenIds = failedSubjects(error, 'assignment-id-taken');
          const refusedContacts = failedSubjects(error, 'contact-assignment-refused');
          // The chunk's contacts are distinct, so a refused contact names its one input.
          const failed = (input: NewAssignment) =>
            takenIds.has(input.assignmentId) || refusedContacts.has(input.contact.id);
          // Cancelled by concurrent transactions on the same items (the counters): tried again shortly.
          if (!pending.some(failed)) throw error;
          for (const input of pending) {
            if (!failed(input)) continue;
            const idTaken = takenIds.has(input.assignmentId);
            outcomes.set(
              input.assignmentId,
              idTaken
                ? { outcome: 'exists', reason: 'id-taken' }
                : guarded
                  ? { outcome: 'contact-changed' }
                  : await createOne(orgId, campaignId, input),
            );
          }
          pending = pending.filter((input) => !failed(input));
        }
      }
    },
    { attempts: MAX_CONFLICT_RETRIES + 1, baseDelayMs: CONFLICT_BASE_DELAY_MS },
  );
}

/** Creates one assignment without a guard (the import), following a concurrent block of its contact. */
async function createOne(orgId: number, campaignId: number, input: NewAssignment): Promise<CreateOutcome> {
  let current = input;
  return retryOnConflict(
    async (attempt): Promise<CreateOutcome> => {
      try {
        await transact(creationWrites(orgId, campaignId, [current], false));
        return { outcome: 'created', assignmentId: current.assignmentId };
      } catch (error) {
        if (!(error instanceof TransactionConflictError)) throw error;
        if (error.failed.has('assignment-id-taken')) return { outcome: 'exists', reason: 'id-taken' };
        if (error.failed.has('contact-assignment-refused')) {
          // The sequence is taken, or the contact was blocked since it was read: then retry with it as it is now.
          const contact = await getContact(orgId, current.contact);
          if (contact && contact.blocked !== current.contact.blocked && attempt < 5) {
            current = { ...current, contact };
            throw error;
          }
          return { outcome: 'exists', reason: 'sequence-taken' };
        }
        if (error.failed.has('campaign-not-found')) throw new CampaignNotFound(campaignId);
        throw error;
      }
    },
    // Every conflict that gets this far is worth another try: a race, or a contact read again.
    { attempts: MAX_CONFLICT_RETRIES + 1, baseDelayMs: CONFLICT_BASE_DELAY_MS, retryIf: () => true },
  );
}
