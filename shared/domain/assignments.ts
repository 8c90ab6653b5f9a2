import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { SequenceInput } from '#schemas/import.ts';
import type { AssignmentStatus, CampaignContact, ContactFields } from '#schemas/resources.ts';
import type { SnippetVariables } from '#schemas/variables.ts';
import { keys } from '#store/keys.ts';
import {
  addCounters,
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
import {
  type ContactAssignmentEntry,
  type ContactRecord,
  contactFieldsOf,
  contactKey,
  ELIGIBILITY_CHANGE,
  eligibilityUnchanged,
  getContact,
} from './contacts.ts';
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

/** An assignment as stored. */
export interface AssignmentRecord extends AssignmentFacts {
  orgId: number;
  assignmentId: number;
  campaignId: number;
  sequenceId: number;
  channel: SequenceInput['channel'];
  provider: SequenceInput['provider'];
  contact: ContactFields;
  createdAt: string;
  approvedAt: string | null;
  sequencedAt: string | null;
  completedAt: string | null;
  bouncedAt: string | null;
  unsubscribedAt: string | null;
  variables: SnippetVariables;
  /** The mailbox that last wrote to the contact, and that message (for reply threading). */
  lastSenderEmail: string | null;
  lastMessageId: number | null;
  lastMessageAt: string | null;
  /** The newest subject in the thread (replies answer it). */
  lastSubject: string | null;
  version: number;
}

/** What creating an assignment needs. */
export interface NewAssignment {
  assignmentId: number;
  sequence: SequenceInput;
  contact: ContactRecord;
  status: AssignmentStatus;
  createdAt: string;
  approvedAt?: string | null;
  sequencedAt?: string | null;
  completedAt?: string | null;
  bouncedAt?: string | null;
  unsubscribedAt?: string | null;
  variables?: SnippetVariables;
}

/** A stored assignment item as a record. */
export function toAssignmentRecord(item: Record<string, unknown>): AssignmentRecord {
  return {
    orgId: item.orgId as number,
    assignmentId: item.assignmentId as number,
    campaignId: item.campaignId as number,
    sequenceId: item.sequenceId as number,
    channel: item.channel as AssignmentRecord['channel'],
    provider: item.provider as AssignmentRecord['provider'],
    contact: contactFieldsOf((item.contact as Record<string, unknown>) ?? {}),
    status: item.status as AssignmentStatus,
    createdAt: item.createdAt as string,
    approvedAt: (item.approvedAt as string | null) ?? null,
    sequencedAt: (item.sequencedAt as string | null) ?? null,
    completedAt: (item.completedAt as string | null) ?? null,
    bouncedAt: (item.bouncedAt as string | null) ?? null,
    unsubscribedAt: (item.unsubscribedAt as string | null) ?? null,
    variables: new Map(Object.entries((item.variables as Record<string, string> | undefined) ?? {})),
    sentCount: Number(item.sentCount ?? 0),
    openCount: Number(item.openCount ?? 0),
    clickCount: Number(item.clickCount ?? 0),
    contactBlocked: item.contactBlocked === true,
    lastSenderEmail: (item.lastSenderEmail as string | null) ?? null,
    lastMessageId: (item.lastMessageId as number | null) ?? null,
    lastMessageAt: (item.lastMessageAt as string | null) ?? null,
    lastSubject: (item.lastSubject as string | null) ?? null,
    version: Number(item.version ?? 0),
  };
}

/** The facts of a record that the counters depend on. */
export const factsOf = (record: AssignmentFacts): AssignmentFacts => ({
  status: record.status,
  sentCount: record.sentCount,
  openCount: record.openCount,
  clickCount: record.clickCount,
  contactBlocked: record.contactBlocked,
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
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.assignment(orgId, assignmentId),
      ConsistentRead: true,
    }),
  );
  if (!Item) throw new AssignmentNotFound(assignmentId);
  return toAssignmentRecord(Item);
}

function assignmentItem(orgId: number, campaignId: number, input: NewAssignment): Record<string, unknown> {
  return {
    ...keys.assignment(orgId, input.assignmentId),
    ...keys.assignmentListing(orgId, campaignId, input.status, input.createdAt, input.assignmentId),
    type: 'assignment',
    orgId,
    assignmentId: input.assignmentId,
    campaignId,
    sequenceId: input.sequence.id,
    channel: input.sequence.channel,
    provider: input.sequence.provider,
    contact: contactFieldsOf(input.contact as unknown as Record<string, unknown>),
    status: input.status,
    createdAt: input.createdAt,
    approvedAt: input.approvedAt ?? null,
    sequencedAt: input.sequencedAt ?? null,
    completedAt: input.completedAt ?? null,
    bouncedAt: input.bouncedAt ?? null,
    unsubscribedAt: input.unsubscribedAt ?? null,
    // A Map, so that names like `constructor` reach the marshaller as names, not as a prototype lookup.
    variables: input.variables ?? new Map(),
    sentCount: 0,
    openCount: 0,
    clickCount: 0,
    contactBlocked: input.contact.blocked,
    version: 1,
  };
}

const ITEMS_PER_ASSIGNMENT = 2;
/** Leaves room for the campaign and organization counter updates. */
const ASSIGNMENTS_PER_TRANSACTION = Math.floor((MAX_TRANSACTION_ITEMS - 2) / ITEMS_PER_ASSIGNMENT);

/** The outcome of creating one assignment. */
export type CreateOutcome =
  | { outcome: 'created'; assignmentId: number }
  | { outcome: 'exists'; reason: 'id-taken' | 'sequence-taken' }
  /** Guarded creation only: the contact changed since it was read; judge it again as it is now. */
  | { outcome: 'contact-changed' };

/** How often a transaction cancelled by concurrent ones (no condition failed) is tried again. */
export const MAX_CONFLICT_RETRIES = 6;

/** Waits a random while, growing with the attempt, so that transactions that collided spread out. */
export const backoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));

function chunkWithDistinctContacts(inputs: NewAssignment[]): NewAssignment[][] {
  const chunks: NewAssignment[][] = [];
  let current: NewAssignment[] = [];
  let contacts = new Set<string>();
  for (const input of inputs) {
    const key = JSON.stringify(contactKey(0, input.contact));
    if (current.length >= ASSIGNMENTS_PER_TRANSACTION || contacts.has(key)) {
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

function creationWrites(
  orgId: number,
  campaignId: number,
  inputs: NewAssignment[],
  guarded: boolean,
): TransactItem[] {
  const campaignDelta: Partial<CampaignCounts> = {};
  const organizationDelta: Partial<OrganizationCounts> = {};
  const writes: TransactItem[] = [];
  for (const input of inputs) {
    const item = assignmentItem(orgId, campaignId, input);
    const deltas = assignmentDeltas(null, factsOf(toAssignmentRecord(item)));
    accumulate(campaignDelta, deltas.campaign);
    accumulate(organizationDelta, deltas.organization);
    const guard = guarded ? eligibilityUnchanged(input.contact) : null;
    writes.push(
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: contactKey(orgId, input.contact),
          UpdateExpression: `SET assignments.#assignment = :entry, sequenceAssignments.#sequence = :assignment ${ELIGIBILITY_CHANGE.update}`,
          // The contact must still be blocked or not as read: the new assignment's `contactBlocked`
          // and the campaign's blocked stat depend on it (a concurrent contact_blocked event).
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(sequenceAssignments.#sequence) AND ${
            input.contact.blocked ? 'blocked = :true' : '(attribute_not_exists(blocked) OR blocked <> :true)'
          }${guard ? ` AND ${guard.condition}` : ''}`,
          ExpressionAttributeNames: {
            '#assignment': String(input.assignmentId),
            '#sequence': String(input.sequence.id),
          },
          ExpressionAttributeValues: {
            ':entry': summaryEntry({
              ...input,
              campaignId,
              sequenceId: input.sequence.id,
              channel: input.sequence.channel,
              completedAt: input.completedAt ?? null,
            }),
            ':assignment': input.assignmentId,
            ':true': true,
            ...ELIGIBILITY_CHANGE.values,
            ...guard?.values,
          },
        },
      },
    );
  }
  writes.push(addCounters(keys.campaign(orgId, campaignId), campaignDelta, { mustExist: true })!);
  const organizationWrite = addCounters(keys.analytics(orgId), organizationDelta);
  if (organizationWrite) writes.push(organizationWrite);
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
 * assignments are settled on their own and the rest are tried again together,
 * so one lost race does not cost a transaction per assignment of the chunk.
 */
async function createChunk(
  orgId: number,
  campaignId: number,
  chunk: NewAssignment[],
  guarded: boolean,
  outcomes: Map<number, CreateOutcome>,
  attempt = 0,
): Promise<void> {
  try {
    await transact(creationWrites(orgId, campaignId, chunk, guarded));
    for (const input of chunk)
      outcomes.set(input.assignmentId, { outcome: 'created', assignmentId: input.assignmentId });
    return;
  } catch (error) {
    if (!(error instanceof TransactionConflictError)) throw error;
    // The writes are an assignment and its contact per input, then the counters (the campaign's first).
    if (error.failedConditions.includes(chunk.length * ITEMS_PER_ASSIGNMENT)) {
      throw new CampaignNotFound(campaignId);
    }
    const failed = new Set(error.failedConditions.map((index) => Math.floor(index / ITEMS_PER_ASSIGNMENT)));
    if (failed.size === 0) {
      // Cancelled by concurrent transactions on the same items (the counters): try again shortly.
      if (attempt >= MAX_CONFLICT_RETRIES) throw error;
      await backoff(attempt);
      return createChunk(orgId, campaignId, chunk, guarded, outcomes, attempt + 1);
    }
    for (const [index, input] of chunk.entries()) {
      if (!failed.has(index)) continue;
      const idTaken = error.failedConditions.includes(index * ITEMS_PER_ASSIGNMENT);
      outcomes.set(
        input.assignmentId,
        idTaken
          ? { outcome: 'exists', reason: 'id-taken' }
          : guarded
            ? { outcome: 'contact-changed' }
            : await createOne(orgId, campaignId, input),
      );
    }
    const rest = chunk.filter((_, index) => !failed.has(index));
    if (rest.length > 0) await createChunk(orgId, campaignId, rest, guarded, outcomes, attempt);
  }
}

/** Creates one assignment without a guard (the import), following a concurrent block of its contact. */
async function createOne(
  orgId: number,
  campaignId: number,
  input: NewAssignment,
  attempt = 0,
): Promise<CreateOutcome> {
  try {
    await transact(creationWrites(orgId, campaignId, [input], false));
    return { outcome: 'created', assignmentId: input.assignmentId };
  } catch (error) {
    if (!(error instanceof TransactionConflictError)) throw error;
    if (error.failedConditions.includes(0)) return { outcome: 'exists', reason: 'id-taken' };
    if (error.failedConditions.includes(1)) {
      // The sequence is taken, or the contact was blocked since it was read: then retry with it as it is now.
      const current = await getContact(orgId, input.contact);
      if (current && current.blocked !== input.contact.blocked && attempt < 5) {
        return createOne(orgId, campaignId, { ...input, contact: current }, attempt + 1);
      }
      return { outcome: 'exists', reason: 'sequence-taken' };
    }
    if (error.failedConditions.includes(2)) throw new CampaignNotFound(campaignId);
    if (attempt < MAX_CONFLICT_RETRIES) {
      await backoff(attempt);
      return createOne(orgId, campaignId, input, attempt + 1);
    }
    throw error;
  }
}
