import { INELIGIBILITY_REASONS, type IneligibilityReason } from '#definitions/raw-operations.ts';
import type { SnippetVariables } from '#schemas/variables.ts';
import { variablesWrite } from '#store/assignments.ts';
import type { CampaignRecord, StoredSequence } from '#store/campaigns.ts';
import { lostRace, retryOnConflict } from '#store/conflicts.ts';
import { type ContactRecord, contacts, newContact } from '#store/contacts.ts';
import { allocateIds } from '#store/ids.ts';
import {
  failedSubjects,
  MAX_TRANSACTION_ITEMS,
  TransactionConflictError,
  transact,
} from '#store/transactions.ts';
import { backoff, createAssignments, MAX_CONFLICT_RETRIES, type NewAssignment } from './assignments.ts';
import { getContactsByEmail } from './contacts.ts';
import { type Bypass, evaluate, loadEligibilityInputs, type Verdict } from './eligibility.ts';
import { enrollTargetOf } from './enrollment.ts';
import { ContactsKeptChanging, SequenceNotInCampaign } from './errors.ts';
import { type Withdrawal, withdrawalOf, withdrawalTransaction } from './withdrawals.ts';

/**
 * Raw operations: push contacts into a campaign's sequence with the caller's
 * snippet variables, and the eligibility dry run.
 *
 * Primary course of a push: 1. read campaign, settings, exclusions and the
 * contacts (11 requests for 1,000) 2. judge each contact 3. create the new
 * contacts, withdraw taken-over pending assignments, create assignments and
 * update existing ones — all in transactions of many contacts each.
 *
 * Every write that changes a contact's eligibility expects the contact's
 * eligibility version it was judged at (`contacts.ts`), in the same transaction
 * as the change. A contact that changed meanwhile (a parallel push gave it an
 * assignment, created it first, or withdrew one) is read again, consistently,
 * and judged again, up to MAX_JUDGEMENTS times; so parallel pushes end as if
 * they had run one after another.
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
  variables: SnippetVariables;
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
export function targetSequence(campaign: CampaignRecord, sequenceId: number | undefined): StoredSequence {
  if (sequenceId !== undefined) {
    const sequence = campaign.sequences.find((candidate) => candidate.id === sequenceId);
    if (!sequence) {
      throw new SequenceNotInCampaign(`${sequenceId} is not a sequence of campaign ${campaign.campaignId}`, {
        in: 'body',
        name: 'sequenceId',
      });
    }
    return sequence;
  }
  const sequence = campaign.sequences.find((candidate) => candidate.channel === 'email');
  if (!sequence) {
    throw new SequenceNotInCampaign(
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

/**
 * A chunk's transaction cancelled by concurrent ones (no condition failed) is
 * tried again after a random wait of up to 20 ms, doubling each time; a failed
 * condition settles its items and the rest are tried again at once.
 */
const CHUNK_RETRY = { attempts: MAX_CONFLICT_RETRIES + 1, baseDelayMs: 20 };

/** How often a push judges a contact: once, and again after each concurrent change that beat its write. */
export const MAX_JUDGEMENTS = 8;

/** What a push did with one contact. */
type Outcome =
  | { kind: 'created' | 'updated'; assignmentId: number }
  | { kind: 'skipped'; reasons: IneligibilityReason[] };

/** A contact as a round of the push found it: its stored record, or null when it is not known yet. */
interface Candidate {
  contact: PushContact;
  record: ContactRecord | null;
}

/** A contact the push writes, with the verdict it was judged by. */
interface Plan {
  contact: PushContact;
  record: ContactRecord;
  verdict: Verdict;
}

/** What every round of one push shares. */
interface PushContext {
  orgId: number;
  campaignId: number;
  sequence: StoredSequence;
  options: PushOptions;
  createdAt: string;
  judge(candidate: Candidate): Verdict;
  outcomes: Map<string, Outcome>;
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
  const context: PushContext = {
    orgId,
    campaignId,
    sequence,
    options,
    createdAt: new Date(now).toISOString(),
    judge: ({ contact, record }) =>
      evaluate(
        record,
        inputs.isExcluded(contact.email, contact.companyDomain ?? record?.company_domain ?? null),
        { sequence, cooldownDays: inputs.cooldownDays, now },
        options,
      ),
    outcomes: new Map(),
  };

  let candidates: Candidate[] = contacts.map((contact) => ({
    contact,
    record: inputs.contacts.get(contact.email) ?? null,
  }));
  for (let judgement = 1; candidates.length > 0; judgement++) {
    if (judgement > 1) {
      if (judgement > MAX_JUDGEMENTS) {
        throw new ContactsKeptChanging(
          candidates.map((candidate) => candidate.contact.email),
          MAX_JUDGEMENTS,
        );
      }
      await backoff(judgement - 1);
      const current = await getContactsByEmail(
        orgId,
        candidates.map((candidate) => candidate.contact.email),
        { consistent: true },
      );
      candidates = candidates.map(({ contact }) => ({ contact, record: current.get(contact.email) ?? null }));
    }
    candidates = await pushRound(context, candidates);
  }

  const { outcomes } = context;
  const written = contacts.flatMap((contact) => {
    const outcome = outcomes.get(contact.email);
    return outcome && outcome.kind !== 'skipped' ? [outcome] : [];
  });
  const skippedContacts = contacts.flatMap((contact) => {
    const outcome = outcomes.get(contact.email);
    return outcome?.kind === 'skipped' ? [{ email: contact.email, reasons: outcome.reasons }] : [];
  });
  return {
    created: written.filter((outcome) => outcome.kind === 'created').length,
    updated: written.filter((outcome) => outcome.kind === 'updated').length,
    skipped: skippedContacts.length,
    assignmentIds: written.map((outcome) => outcome.assignmentId),
    errors,
    skippedContacts,
  };
}

/**
 * Judges the candidates and writes what the verdicts say, recording each
 * contact's outcome. Returns the candidates whose writes found the contact
 * changed since it was read: they must be read and judged again.
 */
async function pushRound(context: PushContext, candidates: Candidate[]): Promise<Candidate[]> {
  const { orgId, campaignId, sequence, options, outcomes } = context;
  const changed: Candidate[] = [];
  const known: Plan[] = [];
  const unknown: Candidate[] = [];
  const verdicts = new Map<string, Verdict>();
  for (const candidate of candidates) {
    const verdict = context.judge(candidate);
    if (options.skipIneligible && verdict.reasons.length > 0) {
      outcomes.set(candidate.contact.email, { kind: 'skipped', reasons: verdict.reasons });
    } else if (candidate.record) {
      known.push({ contact: candidate.contact, record: candidate.record, verdict });
    } else {
      unknown.push(candidate);
      verdicts.set(candidate.contact.email, verdict);
    }
  }

  const { created, taken } = await createContacts(orgId, unknown);
  changed.push(...taken);
  const plans = [
    ...known,
    ...created.map(({ contact, record }) => ({ contact, record, verdict: verdicts.get(contact.email)! })),
  ];

  const { withdrawn, failed } = await withdrawPending(
    orgId,
    plans.filter((plan) => plan.verdict.withdraw.length > 0),
  );
  changed.push(...failed);
  const notWithdrawn = new Set(failed);
  const ready = plans
    .filter((plan) => !notWithdrawn.has(plan))
    .map((plan) => ({ ...plan, record: withdrawn.get(plan.contact.email) ?? plan.record }));

  const toCreate = ready.filter((plan) => plan.verdict.existingInSequence === null);
  const assignmentIds = await allocateIds('assignment', toCreate.length);
  const newAssignments: NewAssignment[] = toCreate.map((plan, index) => ({
    assignmentId: assignmentIds[index]!,
    sequence,
    contact: plan.record,
    status: options.triggerIntake ? 'scheduled' : 'pending-approval',
    createdAt: context.createdAt,
    approvedAt: options.triggerIntake ? context.createdAt : null,
    variables: plan.contact.variables,
    // Scheduled at once: enrolled in the sequence's provider campaign, when it has a connected one.
    enrollTarget: options.triggerIntake ? enrollTargetOf(sequence) : null,
  }));
  const results = await createAssignments(orgId, campaignId, newAssignments, { guarded: true });
  for (const [index, result] of results.entries()) {
    const plan = toCreate[index]!;
    if (result.outcome === 'created') {
      outcomes.set(plan.contact.email, { kind: 'created', assignmentId: result.assignmentId });
    } else if (result.outcome === 'contact-changed') {
      changed.push(plan);
    } else {
      throw new Error(`Assignment id ${newAssignments[index]!.assignmentId} was allocated twice`);
    }
  }

  const toUpdate = ready.filter((plan) => plan.verdict.existingInSequence !== null);
  const gone = new Set(await updateVariables(orgId, toUpdate));
  changed.push(...gone);
  for (const plan of toUpdate) {
    if (gone.has(plan)) continue;
    outcomes.set(plan.contact.email, { kind: 'updated', assignmentId: plan.verdict.existingInSequence! });
  }
  return changed;
}

/**
 * Creates the contacts not known yet (conditional puts, 100 per transaction).
 * Returns the records created, and the candidates another request created
 * first (`taken`: to be read and judged as stored).
 */
async function createContacts(
  orgId: number,
  candidates: Candidate[],
): Promise<{ created: { contact: PushContact; record: ContactRecord }[]; taken: Candidate[] }> {
  const ids = await allocateIds('contact', candidates.length);
  const pending = candidates.map((candidate, index) => {
    const { contact } = candidate;
    const fullName = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
    const record = newContact({
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
    return { candidate, record };
  });
  const created: { contact: PushContact; record: ContactRecord }[] = [];
  const taken: Candidate[] = [];
  for (let start = 0; start < pending.length; start += MAX_TRANSACTION_ITEMS) {
    let chunk = pending.slice(start, start + MAX_TRANSACTION_ITEMS);
    await retryOnConflict(async () => {
      while (chunk.length > 0) {
        try {
          await transact(chunk.map(({ record }) => contacts.putNew(orgId, record)));
          for (const { candidate, record } of chunk) created.push({ contact: candidate.contact, record });
          chunk = [];
        } catch (error) {
          if (!(error instanceof TransactionConflictError)) throw error;
          // Cancelled by a concurrent transaction on one of the contacts: tried again shortly.
          if (lostRace(error)) throw error;
          // Created concurrently: those are judged again as stored; the others are tried again together.
          const exists = failedSubjects(error, 'contact-exists');
          taken.push(...chunk.filter(({ record }) => exists.has(record.id)).map((entry) => entry.candidate));
          chunk = chunk.filter(({ record }) => !exists.has(record.id));
        }
      }
    }, CHUNK_RETRY);
  }
  return { created, taken };
}

/** A contact's withdrawal, with the plan it serves. */
interface PlannedWithdrawal extends Withdrawal {
  plan: Plan;
}

/** The contact once its pending assignments are withdrawn, as the creation that follows must expect it. */
function afterWithdrawal(plan: Plan): ContactRecord {
  const assignments = { ...plan.record.assignments };
  const sequenceAssignments = { ...plan.record.sequenceAssignments };
  for (const assignmentId of plan.verdict.withdraw) {
    const entry = assignments[String(assignmentId)];
    if (entry) delete sequenceAssignments[String(entry.sequenceId)];
    delete assignments[String(assignmentId)];
  }
  return {
    ...plan.record,
    assignments,
    sequenceAssignments,
    eligibilityVersion: plan.record.eligibilityVersion + 1,
  };
}

/**
 * Withdraws (deletes) the pending assignments a takeover replaces, with their
 * contact-summary entries and counters, many contacts per transaction. Returns
 * each withdrawn contact as it now is, and the plans whose contact changed
 * since it was read (one of them approved, a concurrent push's assignment):
 * those are judged again.
 */
async function withdrawPending(
  orgId: number,
  plans: Plan[],
): Promise<{ withdrawn: Map<string, ContactRecord>; failed: Plan[] }> {
  const withdrawn = new Map<string, ContactRecord>();
  const failed: Plan[] = [];
  let batch: PlannedWithdrawal[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await transact(withdrawalTransaction(orgId, batch));
      for (const { plan } of batch) withdrawn.set(plan.contact.email, afterWithdrawal(plan));
    } catch (error) {
      if (!(error instanceof TransactionConflictError)) throw error;
      for (const withdrawal of batch) {
        try {
          await transact(withdrawalTransaction(orgId, [withdrawal]));
          withdrawn.set(withdrawal.plan.contact.email, afterWithdrawal(withdrawal.plan));
        } catch (single) {
          if (!(single instanceof TransactionConflictError)) throw single;
          failed.push(withdrawal.plan);
        }
      }
    }
    batch = [];
  };
  for (const withdrawal of plans.map(
    (plan): PlannedWithdrawal => ({ plan, ...withdrawalOf(orgId, plan.record, plan.verdict.withdraw) }),
  )) {
    // The transaction holds every write plus one counter update per campaign touched.
    if (withdrawalTransaction(orgId, [...batch, withdrawal]).length > MAX_TRANSACTION_ITEMS) await flush();
    batch.push(withdrawal);
  }
  await flush();
  return { withdrawn, failed };
}

/**
 * Sets the new variables on existing assignments, 100 per transaction. Returns
 * the plans whose assignment is gone (withdrawn by a concurrent takeover): those
 * are judged again.
 */
async function updateVariables(orgId: number, plans: Plan[]): Promise<Plan[]> {
  const gone: Plan[] = [];
  for (let start = 0; start < plans.length; start += MAX_TRANSACTION_ITEMS) {
    let chunk = plans.slice(start, start + MAX_TRANSACTION_ITEMS);
    await retryOnConflict(async () => {
      while (chunk.length > 0) {
        try {
          await transact(
            chunk.map((plan) =>
              variablesWrite(orgId, plan.verdict.existingInSequence!, plan.contact.variables),
            ),
          );
          chunk = [];
        } catch (error) {
          if (!(error instanceof TransactionConflictError)) throw error;
          // Cancelled by a concurrent transaction on one of the assignments: tried again shortly.
          if (lostRace(error)) throw error;
          const missing = failedSubjects(error, 'assignment-not-found');
          const isGone = (plan: Plan) => missing.has(plan.verdict.existingInSequence!);
          gone.push(...chunk.filter(isGone));
          chunk = chunk.filter((plan) => !isGone(plan));
        }
      }
    }, CHUNK_RETRY);
  }
  return gone;
}
