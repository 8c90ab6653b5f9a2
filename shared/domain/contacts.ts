import type { ContactInput } from '#schemas/import.ts';
import type { ContactFields } from '#schemas/resources.ts';
import { assignments } from '#store/assignments.ts';
import { campaignShardCounters } from '#store/campaigns.ts';
import {
  type ContactAssignmentEntry,
  type ContactRecord,
  contactKey,
  contacts,
  ELIGIBILITY_CHANGE,
  eligibilityUnchanged,
  normalizeEmail,
} from '#store/contacts.ts';
import type { TransactItem } from '#store/transactions.ts';
import { stopOutboxWrite } from './enrollment.ts';
import { AlreadyTaken } from './errors.ts';

/**
 * Contacts (people), org-wide, each carrying its eligibility summary: whether
 * it is blocked and, per assignment, the sequence, channel, status and
 * completion time. Assignment writes keep the summary current in the same
 * transaction, so the raw-push checks read one item per contact.
 *
 * The summary has a version (`eligibilityVersion`, absent until the first
 * change): every write that adds or withdraws an assignment or blocks the
 * contact adds one. A raw push writes only while the contact is at the version
 * it judged it by, so parallel pushes cannot each act on the same judgement.
 */

/** The contact's item, its key and its summary's version live in the store (shared/store/contacts.ts). */
export type { ContactAssignmentEntry, ContactRecord };
export { contactKey, ELIGIBILITY_CHANGE, eligibilityUnchanged, normalizeEmail };

/**
 * Creates the contact or updates its fields, keeping its summary and blocked
 * flag. An email already held by another contact id is a conflict. Returns the
 * contact as stored.
 */
export async function upsertContact(
  orgId: number,
  input: Omit<ContactInput, 'blocked'>,
): Promise<ContactRecord> {
  const fields = contactFields(input);
  const record = await contacts.upsert(orgId, fields);
  if (!record) {
    const email = fields.email === null ? null : normalizeEmail(fields.email);
    throw new AlreadyTaken(`Email ${email} already belongs to another contact`);
  }
  return record;
}

/** The contact's fields as stored, from the import's input (absent ones null). */
export function contactFields(input: Omit<ContactInput, 'blocked'>): ContactFields {
  return {
    id: input.id,
    email: input.email ?? null,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    full_name: input.full_name ?? null,
    title: input.title ?? null,
    linkedin_url: input.linkedin_url ?? null,
    company_name: input.company_name ?? null,
    company_domain: input.company_domain ?? null,
  };
}

/** Reads a contact by its key fields; null when it does not exist. */
export async function getContact(
  orgId: number,
  contact: { id: number; email: string | null },
): Promise<ContactRecord | null> {
  return contacts.get(orgId, contact);
}

/**
 * Reads contacts by email in batches of 100 (BatchGetItem); the map is keyed by
 * normalized email. `consistent` reads see every write that completed before.
 */
export async function getContactsByEmail(
  orgId: number,
  emails: readonly string[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, ContactRecord>> {
  return contacts.getByEmail(orgId, emails, options);
}

/**
 * The writes that block a contact: the flag on the contact, and on each of its
 * assignments (with the campaigns' `blocked` stat) unless already blocked; with
 * `stopAtProviders`, the stop of its leads at the providers.
 * Returns [] when the contact is already blocked.
 */
export function blockContactWrites(
  orgId: number,
  contact: ContactRecord,
  options: { stopAtProviders: boolean; writerSlot?: number | null },
): TransactItem[] {
  if (contact.blocked) return [];
  const writes: TransactItem[] = [contacts.block(orgId, contact)];
  const assignmentIds = Object.keys(contact.assignments).map(Number);
  // Its leads still running at a provider are stopped there (docs/providers.md#stopping-outreach).
  if (options.stopAtProviders && assignmentIds.length > 0) {
    writes.push(stopOutboxWrite(orgId, assignmentIds, 'contact blocked'));
  }
  // Per campaign, on the writer's shard or that of its first assignment here (any: a sum reads the same).
  const blockedPerCampaign = new Map<number, { assignmentId: number; count: number }>();
  for (const [assignmentId, entry] of Object.entries(contact.assignments)) {
    writes.push(assignments.markContactBlocked(orgId, Number(assignmentId)));
    const blocked = blockedPerCampaign.get(entry.campaignId) ?? {
      assignmentId: Number(assignmentId),
      count: 0,
    };
    blocked.count += 1;
    blockedPerCampaign.set(entry.campaignId, blocked);
  }
  for (const [campaignId, { assignmentId, count }] of blockedPerCampaign) {
    writes.push(
      campaignShardCounters(
        orgId,
        campaignId,
        assignmentId,
        { statBlocked: count },
        options.writerSlot ?? null,
      )!,
    );
  }
  return writes;
}
