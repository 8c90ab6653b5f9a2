import { tableName } from '../config.ts';
import { allocateIds } from '../db/ids.ts';
import { keys } from '../db/keys.ts';
import {
  addCounters,
  MAX_TRANSACTION_ITEMS,
  type TransactItem,
  TransactionConflictError,
  transact,
} from '../db/transactions.ts';
import { BadRequestError } from '../http/errors.ts';
import type { SequenceInput } from '../schemas/import.ts';
import { INELIGIBILITY_REASONS, type IneligibilityReason } from '../schemas/raw.ts';
import { accumulate, assignmentDeltas, type CampaignCounts } from './aggregates.ts';
import { createAssignments, type NewAssignment } from './assignments.ts';
import type { CampaignRecord } from './campaigns.ts';
import { type ContactRecord, contactKey, getContact, newContactItem, toContactRecord } from './contacts.ts';
import { type Bypass, evaluate, loadEligibilityInputs, type Verdict } from './eligibility.ts';

/**
 * Raw operations: push contacts into a campaign's sequence with the caller's
 * snippet variables, and the eligibility dry run.
 *
 * Primary course of a push: 1. read campaign, settings, exclusions and the
 * contacts (11 requests for 1,000) 2. judge each contact 3. create the new
 * contacts, withdraw taken-over pending assignments, create assignments and
 * update existing ones — all in transactions of many contacts each, with
 * conditions that keep one assignment per contact and sequence under
 * concurrent pushes.
 */

/** A validated contact of a push (email normalized, company domain normalized). */
export interface PushContact {
  email: string;
  firstName?: string;
  lastName?: string;
  title?: string;
  linkedinUrl?: string;
  companyName?: string;
  companyDomain?: string;
  variables: Record<string, string>;
}

export interface PushOptions extends Bypass {
  skipIneligible: boolean;
  triggerIntake: boolean;
  sequenceId?: number;
}

/** A contact that failed validation: reported, not pushed. */
export interface ContactError {
  index: number;
  email: string | null;
  message: string;
}

/** The spec's upsert result. */
export interface UpsertResult {
  created: number;
  updated: number;
  skipped: number;
  assignmentIds: number[];
  errors: ContactError[];
  skippedContacts: { email: string; reasons: IneligibilityReason[] }[];
}

/** The spec's eligibility check result. */
export interface EligibilityResult {
  results: { email: string; eligible: boolean; reasons: IneligibilityReason[] }[];
  summary: { total: number; eligible: number; ineligible: number } & Record<IneligibilityReason, number>;
}

/** The sequence a push targets: the one asked for, else the campaign's first email sequence. */
export function targetSequence(campaign: CampaignRecord, sequenceId: number | undefined): SequenceInput {
  if (sequenceId !== undefined) {
    const sequence = campaign.sequences.find((candidate) => candidate.id === sequenceId);
    if (!sequence) {
      throw new BadRequestError(
        `Invalid body field 'sequenceId': ${sequenceId} is not a sequence of campaign ${campaign.campaignId}`,
      );
    }
    return sequence;
  }
  const sequence = campaign.sequences.find((candidate) => candidate.channel === 'email');
  if (!sequence) {
    throw new BadRequestError(
      `Campaign ${campaign.campaignId} has no email sequence: name one with 'sequenceId'`,
    );
  }
  return sequence;
}

/** The dry run: judges each email (normalized, deduplicated by the caller) and writes nothing. */
export async function checkEligibility(
  orgId: number,
  campaignId: number,
  emails: string[],
  options: Bypass & { sequenceId?: number },
): Promise<EligibilityResult> {
  const inputs = await loadEligibilityInputs(orgId, campaignId, emails);
  const sequence = targetSequence(inputs.campaign, options.sequenceId);
  const now = Date.now();
  const results = emails.map((email) => {
    const contact = inputs.contacts.get(email) ?? null;
    const verdict = evaluate(
      contact,
      inputs.isExcluded(email, contact?.company_domain ?? null),
      { sequence, cooldownDays: inputs.cooldownDays, now },
      options,
    );
    return { email, eligible: verdict.reasons.length === 0, reasons: verdict.reasons };
  });
  const summary = {
    total: results.length,
    eligible: results.filter((result) => result.eligible).length,
    ineligible: results.filter((result) => !result.eligible).length,
    ...(Object.fromEntries(
      INELIGIBILITY_REASONS.map((reason) => [
        reason,
        results.filter((result) => result.reasons.includes(reason)).length,
      ]),
    ) as Record<IneligibilityReason, number>),
  };
  return { results, summary };
}

interface Plan {
  contact: PushContact;
  record: ContactRecord | null;
  verdict: Verdict;
}

/** Pushes contacts (normalized, deduplicated, validated by the caller) into the campaign's sequence. */
export async function pushContacts(
  orgId: number,
  campaignId: number,
  contacts: PushContact[],
  errors: ContactError[],
  options: PushOptions,
): Promise<UpsertResult> {
  const inputs = await loadEligibilityInputs(
    orgId,
    campaignId,
    contacts.map((contact) => contact.email),
  );
  const sequence = targetSequence(inputs.campaign, options.sequenceId);
  const now = Date.now();
  const skippedContacts: UpsertResult['skippedContacts'] = [];
  const plans: Plan[] = [];
  for (const contact of contacts) {
    const record = inputs.contacts.get(contact.email) ?? null;
    const verdict = evaluate(
      record,
      inputs.isExcluded(contact.email, contact.companyDomain ?? record?.company_domain ?? null),
      { sequence, cooldownDays: inputs.cooldownDays, now },
      options,
    );
    if (options.skipIneligible && verdict.reasons.length > 0)
      skippedContacts.push({ email: contact.email, reasons: verdict.reasons });
    else plans.push({ contact, record, verdict });
  }

  const records = await ensureContacts(orgId, plans);
  await withdrawPending(orgId, plans, records);

  const outcome = new Map<string, { kind: 'created' | 'updated'; assignmentId: number }>();
  const toUpdate = plans.filter((plan) => plan.verdict.existingInSequence !== null);
  const toCreate = plans.filter((plan) => plan.verdict.existingInSequence === null);
  const assignmentIds = await allocateIds('assignment', toCreate.length);
  const createdAt = new Date(now).toISOString();
  const newAssignments: NewAssignment[] = toCreate.map((plan, index) => ({
    assignmentId: assignmentIds[index]!,
    sequence,
    contact: records.get(plan.contact.email)!,
    status: options.triggerIntake ? 'scheduled' : 'pending-approval',
    createdAt,
    approvedAt: options.triggerIntake ? createdAt : null,
    variables: plan.contact.variables,
  }));
  const created = await createAssignments(orgId, campaignId, newAssignments);
  for (const [index, result] of created.entries()) {
    const plan = toCreate[index]!;
    if (result.outcome === 'created') {
      outcome.set(plan.contact.email, { kind: 'created', assignmentId: result.assignmentId });
      continue;
    }
    // A concurrent push gave the contact an assignment in this sequence first.
    const current = await getContact(orgId, { id: 0, email: plan.contact.email });
    const existing = current?.sequenceAssignments[String(sequence.id)];
    if (existing === undefined)
      throw new Error(`Assignment of ${plan.contact.email} vanished during the push`);
    if (options.skipIneligible)
      skippedContacts.push({ email: plan.contact.email, reasons: ['cooldown_same_sequence'] });
    else toUpdate.push({ ...plan, verdict: { ...plan.verdict, existingInSequence: existing } });
  }
  await updateVariables(orgId, toUpdate);
  for (const plan of toUpdate)
    outcome.set(plan.contact.email, { kind: 'updated', assignmentId: plan.verdict.existingInSequence! });

  const ordered = contacts.flatMap((contact) => {
    const entry = outcome.get(contact.email);
    return entry ? [entry] : [];
  });
  const skippedOrder = new Map(contacts.map((contact, index) => [contact.email, index]));
  return {
    created: ordered.filter((entry) => entry.kind === 'created').length,
    updated: ordered.filter((entry) => entry.kind === 'updated').length,
    skipped: skippedContacts.length,
    assignmentIds: ordered.map((entry) => entry.assignmentId),
    errors,
    skippedContacts: skippedContacts.sort((a, b) => skippedOrder.get(a.email)! - skippedOrder.get(b.email)!),
  };
}

/** Creates the contacts not known yet (conditional puts, 100 per transaction); returns every plan's contact. */
async function ensureContacts(orgId: number, plans: Plan[]): Promise<Map<string, ContactRecord>> {
  const records = new Map<string, ContactRecord>();
  const missing = plans.filter((plan) => {
    if (plan.record) records.set(plan.contact.email, plan.record);
    return !plan.record;
  });
  const ids = await allocateIds('contact', missing.length);
  const items = missing.map((plan, index) => {
    const { contact } = plan;
    const fullName = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
    return newContactItem(orgId, {
      id: ids[index]!,
      email: contact.email,
      first_name: contact.firstName ?? null,
      last_name: contact.lastName ?? null,
      full_name: fullName || null,
      title: contact.title ?? null,
      linkedin_url: contact.linkedinUrl ?? null,
      company_name: contact.companyName ?? null,
      company_domain: contact.companyDomain ?? null,
    });
  });
  for (let start = 0; start < items.length; start += MAX_TRANSACTION_ITEMS) {
    const chunk = items.slice(start, start + MAX_TRANSACTION_ITEMS);
    try {
      await transact(
        chunk.map((Item) => ({
          Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
        })),
      );
      for (const item of chunk) records.set(item.email as string, toContactRecord(item));
    } catch (error) {
      if (!(error instanceof TransactionConflictError)) throw error;
      // Some were created concurrently: settle one by one, taking the stored contact where it exists.
      for (const item of chunk) records.set(item.email as string, await createOrRead(orgId, item));
    }
  }
  return records;
}

async function createOrRead(orgId: number, item: Record<string, unknown>): Promise<ContactRecord> {
  try {
    await transact([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
    return toContactRecord(item);
  } catch (error) {
    if (!(error instanceof TransactionConflictError)) throw error;
    const existing = await getContact(orgId, { id: 0, email: item.email as string });
    if (!existing) throw error;
    return existing;
  }
}

/** The writes that withdraw one contact's pending assignments, and what they take off each campaign's counters. */
interface Withdrawal {
  writes: TransactItem[];
  campaignDeltas: Map<number, Partial<CampaignCounts>>;
}

function withdrawalOf(orgId: number, contact: ContactRecord, assignmentIds: number[]): Withdrawal {
  const writes: TransactItem[] = [];
  const removals: string[] = [];
  const names: Record<string, string> = {};
  const campaignDeltas = new Map<number, Partial<CampaignCounts>>();
  for (const [index, assignmentId] of assignmentIds.entries()) {
    const entry = contact.assignments[String(assignmentId)]!;
    writes.push({
      Delete: {
        TableName: tableName(),
        Key: keys.assignment(orgId, assignmentId),
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending-approval' },
      },
    });
    names[`#a${index}`] = String(assignmentId);
    names[`#s${index}`] = String(entry.sequenceId);
    removals.push(`assignments.#a${index}`, `sequenceAssignments.#s${index}`);
    // A pending assignment has sent nothing: it counts only as pending (and as blocked if its contact is).
    const { campaign } = assignmentDeltas(
      {
        status: 'pending-approval',
        sentCount: 0,
        openCount: 0,
        clickCount: 0,
        contactBlocked: contact.blocked,
      },
      null,
    );
    const delta = campaignDeltas.get(entry.campaignId) ?? {};
    accumulate(delta, campaign);
    campaignDeltas.set(entry.campaignId, delta);
  }
  writes.push({
    Update: {
      TableName: tableName(),
      Key: contactKey(orgId, contact),
      UpdateExpression: `REMOVE ${removals.join(', ')}`,
      // The blocked stat taken off above assumes the contact is as read; a concurrent block fails this.
      ConditionExpression: contact.blocked
        ? 'blocked = :true'
        : '(attribute_not_exists(blocked) OR blocked <> :true)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':true': true },
    },
  });
  return { writes, campaignDeltas };
}

/** One transaction for several withdrawals, their campaign counter changes merged per campaign. */
function withdrawalTransaction(orgId: number, withdrawals: Withdrawal[]): TransactItem[] {
  const merged = new Map<number, Partial<CampaignCounts>>();
  for (const withdrawal of withdrawals) {
    for (const [campaignId, delta] of withdrawal.campaignDeltas) {
      const total = merged.get(campaignId) ?? {};
      accumulate(total, delta);
      merged.set(campaignId, total);
    }
  }
  return [
    ...withdrawals.flatMap((withdrawal) => withdrawal.writes),
    ...[...merged].flatMap(
      ([campaignId, delta]) => addCounters(keys.campaign(orgId, campaignId), delta) ?? [],
    ),
  ];
}

/**
 * Withdraws (deletes) the pending assignments a takeover replaces, with their
 * contact-summary entries and counters, many contacts per transaction. One
 * approved or withdrawn meanwhile is left as it is.
 */
async function withdrawPending(
  orgId: number,
  plans: Plan[],
  records: Map<string, ContactRecord>,
): Promise<void> {
  const withdrawals: Withdrawal[] = [];
  for (const plan of plans.filter((candidate) => candidate.verdict.withdraw.length > 0)) {
    const contact = records.get(plan.contact.email)!;
    withdrawals.push(withdrawalOf(orgId, contact, plan.verdict.withdraw));
    // The assignments about to be created are checked against this record's summary.
    for (const assignmentId of plan.verdict.withdraw) {
      const entry = contact.assignments[String(assignmentId)];
      if (entry) delete contact.sequenceAssignments[String(entry.sequenceId)];
      delete contact.assignments[String(assignmentId)];
    }
  }
  let batch: Withdrawal[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await transact(withdrawalTransaction(orgId, batch));
    } catch (error) {
      if (!(error instanceof TransactionConflictError)) throw error;
      for (const withdrawal of batch) {
        await transact(withdrawalTransaction(orgId, [withdrawal])).catch((single) => {
          if (!(single instanceof TransactionConflictError)) throw single;
        });
      }
    }
    batch = [];
  };
  for (const withdrawal of withdrawals) {
    // The transaction holds every write plus one counter update per campaign touched.
    if (withdrawalTransaction(orgId, [...batch, withdrawal]).length > MAX_TRANSACTION_ITEMS) await flush();
    batch.push(withdrawal);
  }
  await flush();
}

/** Sets the new variables on existing assignments, 100 per transaction. */
async function updateVariables(orgId: number, plans: Plan[]): Promise<void> {
  const writes: TransactItem[] = plans.map((plan) => ({
    Update: {
      TableName: tableName(),
      Key: keys.assignment(orgId, plan.verdict.existingInSequence!),
      UpdateExpression: 'SET variables = :variables ADD version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':variables': plan.contact.variables, ':one': 1 },
    },
  }));
  for (let start = 0; start < writes.length; start += MAX_TRANSACTION_ITEMS) {
    await transact(writes.slice(start, start + MAX_TRANSACTION_ITEMS));
  }
}
