import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { ContactInput } from '#schemas/import.ts';
import type { AssignmentStatus, Channel, ContactFields } from '#schemas/resources.ts';
import { batchGet } from '#store/batch.ts';
import { keys } from '#store/keys.ts';
import { addCounters, type TransactItem } from '#store/transactions.ts';
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

/** One assignment as the contact's eligibility summary records it. */
export interface ContactAssignmentEntry {
  campaignId: number;
  sequenceId: number;
  channel: Channel;
  status: AssignmentStatus;
  completedAt: string | null;
}

export interface ContactRecord extends ContactFields {
  blocked: boolean;
  /** Assignment id → summary entry. */
  assignments: Record<string, ContactAssignmentEntry>;
  /** Sequence id → the contact's one assignment in it (the uniqueness guard). */
  sequenceAssignments: Record<string, number>;
  /** How often assignments were added or withdrawn, or the contact blocked (0: never). */
  eligibilityVersion: number;
}

/** Emails are compared case-insensitively everywhere. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const CONTACT_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'full_name',
  'title',
  'linkedin_url',
  'company_name',
  'company_domain',
] as const satisfies readonly (keyof ContactFields)[];

/** The item key of a contact. */
export const contactKey = (orgId: number, contact: { id: number; email: string | null }) =>
  keys.contact(orgId, {
    id: contact.id,
    email: contact.email === null ? null : normalizeEmail(contact.email),
  });

/** The contact fields of an item, as the API shows them. */
export function contactFieldsOf(item: Record<string, unknown>): ContactFields {
  return {
    id: item.id as number,
    ...(Object.fromEntries(
      CONTACT_FIELDS.map((name) => [name, (item[name] as string | null) ?? null]),
    ) as Omit<ContactFields, 'id'>),
  };
}

/** A stored contact item as a record. */
export function toContactRecord(item: Record<string, unknown>): ContactRecord {
  return {
    ...contactFieldsOf(item),
    blocked: item.blocked === true,
    assignments: (item.assignments as Record<string, ContactAssignmentEntry>) ?? {},
    sequenceAssignments: (item.sequenceAssignments as Record<string, number>) ?? {},
    eligibilityVersion: Number(item.eligibilityVersion ?? 0),
  };
}

/** The clause (and its value) every write that changes a contact's eligibility summary adds to its update. */
export const ELIGIBILITY_CHANGE = {
  update: 'ADD eligibilityVersion :versionStep',
  values: { ':versionStep': 1 },
} as const;

/** The condition that the contact's eligibility summary is still at the version `contact` was read at. */
export function eligibilityUnchanged(contact: Pick<ContactRecord, 'eligibilityVersion'>): {
  condition: string;
  values: Record<string, number>;
} {
  return contact.eligibilityVersion === 0
    ? { condition: 'attribute_not_exists(eligibilityVersion)', values: {} }
    : {
        condition: 'eligibilityVersion = :readVersion',
        values: { ':readVersion': contact.eligibilityVersion },
      };
}

/**
 * Creates the contact or updates its fields, keeping its summary and blocked
 * flag. An email already held by another contact id is a conflict. Returns the
 * contact as stored.
 */
export async function upsertContact(
  orgId: number,
  input: Omit<ContactInput, 'blocked'>,
): Promise<ContactRecord> {
  const fields = Object.fromEntries(CONTACT_FIELDS.map((name) => [name, input[name] ?? null]));
  if (fields.email !== null) fields.email = normalizeEmail(fields.email as string);
  const names: Record<string, string> = { '#id': 'id' };
  const values: Record<string, unknown> = {
    ':id': input.id,
    ':empty': {},
    ':false': false,
    ':type': 'contact',
    ':org': orgId,
  };
  const sets = [
    '#id = :id',
    '#type = :type',
    'orgId = :org',
    'assignments = if_not_exists(assignments, :empty)',
  ];
  sets.push(
    'sequenceAssignments = if_not_exists(sequenceAssignments, :empty)',
    'blocked = if_not_exists(blocked, :false)',
  );
  names['#type'] = 'type';
  CONTACT_FIELDS.forEach((name, index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = fields[name];
    sets.push(`#f${index} = :f${index}`);
  });
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: contactKey(orgId, { id: input.id, email: fields.email as string | null }),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_not_exists(pk) OR #id = :id',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toContactRecord(Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw new AlreadyTaken(`Email ${fields.email} already belongs to another contact`);
    }
    throw error;
  }
}

/** Reads a contact by its key fields; null when it does not exist. */
export async function getContact(
  orgId: number,
  contact: { id: number; email: string | null },
): Promise<ContactRecord | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: contactKey(orgId, contact), ConsistentRead: true }),
  );
  return Item ? toContactRecord(Item) : null;
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
  const unique = [...new Set(emails.map(normalizeEmail))];
  const items = await batchGet(
    unique.map((email) => contactKey(orgId, { id: 0, email })),
    options,
  );
  const found = new Map<string, ContactRecord>();
  for (const record of items.map(toContactRecord)) {
    if (record.email) found.set(normalizeEmail(record.email), record);
  }
  return found;
}

/**
 * The writes that block a contact: the flag on the contact, and on each of its
 * assignments (with the campaigns' `blocked` stat) unless already blocked.
 * Returns [] when the contact is already blocked.
 */
export function blockContactWrites(orgId: number, contact: ContactRecord): TransactItem[] {
  if (contact.blocked) return [];
  const writes: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: contactKey(orgId, contact),
        UpdateExpression: `SET blocked = :true ${ELIGIBILITY_CHANGE.update}`,
        // Also fails when an assignment was added or withdrawn since the contact was read (a
        // concurrent push): the caller reads again, so every assignment of the contact is flagged.
        ConditionExpression: 'attribute_exists(pk) AND blocked <> :true AND size(assignments) = :count',
        ExpressionAttributeValues: {
          ':true': true,
          ':count': Object.keys(contact.assignments).length,
          ...ELIGIBILITY_CHANGE.values,
        },
      },
    },
  ];
  const blockedPerCampaign = new Map<number, number>();
  for (const [assignmentId, entry] of Object.entries(contact.assignments)) {
    writes.push({
      Update: {
        TableName: tableName(),
        Key: keys.assignment(orgId, Number(assignmentId)),
        UpdateExpression: 'SET contactBlocked = :true ADD version :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':true': true, ':one': 1 },
      },
    });
    blockedPerCampaign.set(entry.campaignId, (blockedPerCampaign.get(entry.campaignId) ?? 0) + 1);
  }
  for (const [campaignId, count] of blockedPerCampaign) {
    writes.push(addCounters(keys.campaign(orgId, campaignId), { statBlocked: count })!);
  }
  return writes;
}

/** The item of a contact created by a raw push (no assignments yet). */
export function newContactItem(orgId: number, contact: ContactFields): Record<string, unknown> {
  const email = contact.email === null ? null : normalizeEmail(contact.email);
  return {
    ...contactKey(orgId, { id: contact.id, email }),
    type: 'contact',
    orgId,
    ...contact,
    email,
    blocked: false,
    assignments: {},
    sequenceAssignments: {},
  };
}
