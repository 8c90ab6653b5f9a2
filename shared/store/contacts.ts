import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ContactFields } from '#schemas/resources.ts';
import { batchGet } from './batch.ts';
import * as keys from './item-keys.ts';
import { type ContactAssignmentEntry, type ContactRecord, contactItem } from './item-schemas/contacts.ts';
import { normalizeLinkedinUrl } from './linkedin-urls.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { ContactAssignmentEntry, ContactRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Contacts (people), org-wide, each carrying its eligibility summary: whether
 * it is blocked and, per assignment, the sequence, channel, status and
 * completion time. A contact with an email is keyed by it (normalized), so a
 * raw push reads a thousand of them by email with BatchGetItem.
 *
 * The summary has a version (`eligibilityVersion`, absent until the first
 * change): every write here that adds or withdraws an assignment, changes
 * one's status, or blocks the contact adds one, and a guarded write requires
 * the version its caller read.
 */

/** Emails are compared case-insensitively everywhere. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** LinkedIn profile URLs are compared in their normalized form (shared/store/linkedin-urls.ts). */
export { normalizeLinkedinUrl };

/**
 * The gsi2 keys of a contact found by its LinkedIn profile URL; null when it
 * has none, or one that is no profile URL (it is then not in the index).
 */
function linkedinKeys(orgId: number, contact: { id: number; linkedin_url: string | null }) {
  const normalized = contact.linkedin_url === null ? null : normalizeLinkedinUrl(contact.linkedin_url);
  return normalized === null ? null : keys.contactLinkedin(orgId, normalized, contact.id);
}

/** The item key of a contact. */
export const contactKey = (orgId: number, contact: { id: number; email: string | null }) =>
  keys.contact(orgId, {
    id: contact.id,
    email: contact.email === null ? null : normalizeEmail(contact.email),
  });

export const CONTACT_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'full_name',
  'title',
  'linkedin_url',
  'company_name',
  'company_domain',
] as const satisfies readonly (keyof ContactFields)[];

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

/** The contact as a push creates it: its details, no assignments yet. */
export function newContact(contact: ContactFields): ContactRecord {
  return {
    ...contact,
    email: contact.email === null ? null : normalizeEmail(contact.email),
    blocked: false,
    assignments: {},
    sequenceAssignments: {},
    eligibilityVersion: 0,
  };
}

export function contactStore(table: TableSource = tableContext) {
  return {
    /**
     * Creates the contact or updates its fields, keeping its summary and
     * blocked flag. Null, writing nothing, when its email belongs to another
     * contact id. Returns the contact as stored.
     */
    async upsert(orgId: number, fields: ContactFields): Promise<ContactRecord | null> {
      const { name, client } = table();
      const email = fields.email === null ? null : normalizeEmail(fields.email);
      const names: Record<string, string> = { '#id': 'id', '#type': 'type' };
      const values: Record<string, unknown> = {
        ':id': fields.id,
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
        'sequenceAssignments = if_not_exists(sequenceAssignments, :empty)',
        'blocked = if_not_exists(blocked, :false)',
      ];
      CONTACT_FIELDS.forEach((field, index) => {
        names[`#f${index}`] = field;
        values[`:f${index}`] = field === 'email' ? email : fields[field];
        sets.push(`#f${index} = :f${index}`);
      });
      // The LinkedIn index keys follow the URL in the same write: set with it, removed without it.
      const linkedin = linkedinKeys(orgId, fields);
      if (linkedin) {
        values[':gsi2pk'] = linkedin.gsi2pk;
        values[':gsi2sk'] = linkedin.gsi2sk;
        sets.push('gsi2pk = :gsi2pk', 'gsi2sk = :gsi2sk');
      }
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: contactKey(orgId, { id: fields.id, email }),
            UpdateExpression: `SET ${sets.join(', ')}${linkedin ? '' : ' REMOVE gsi2pk, gsi2sk'}`,
            ConditionExpression: 'attribute_not_exists(pk) OR #id = :id',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return contactItem.parse(Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },

    /** Reads a contact by its key fields, consistently; null when it does not exist. */
    async get(orgId: number, contact: { id: number; email: string | null }): Promise<ContactRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: contactKey(orgId, contact), ConsistentRead: true }),
      );
      return Item ? contactItem.parse(Item) : null;
    },

    /** Reads contacts by email, 100 a BatchGetItem; keyed by normalized email. */
    async getByEmail(
      orgId: number,
      emails: readonly string[],
      options: { consistent?: boolean } = {},
    ): Promise<Map<string, ContactRecord>> {
      const unique = [...new Set(emails.map(normalizeEmail))];
      const items = await batchGet(
        unique.map((email) => contactKey(orgId, { id: 0, email })),
        options,
        table(),
      );
      const found = new Map<string, ContactRecord>();
      for (const item of items) {
        const record = contactItem.parse(item);
        if (record.email) found.set(normalizeEmail(record.email), record);
      }
      return found;
    },

    /**
     * The contact with the LinkedIn profile URL (in any spelling that
     * normalizes alike), by one Query of gsi2; null when none has it or `url`
     * is no profile URL. Contacts sharing a URL: the one with the lowest id.
     * An index read is eventually consistent: a contact written a moment ago
     * may not be found yet.
     */
    async findByLinkedinUrl(orgId: number, url: string): Promise<ContactRecord | null> {
      const normalized = normalizeLinkedinUrl(url);
      if (normalized === null) return null;
      const { name, client } = table();
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: name,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.contactsByLinkedin(orgId, normalized).gsi2pk },
          // Ascending by gsi2sk, which orders the contacts of one URL by id.
          ScanIndexForward: true,
          Limit: 1,
        }),
      );
      return Items[0] ? contactItem.parse(Items[0]) : null;
    },

    /** The put of a contact a push creates (`newContact`); fails when the key is taken. */
    putNew(orgId: number, contact: ContactRecord): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...contactKey(orgId, contact),
            ...linkedinKeys(orgId, contact),
            type: 'contact',
            orgId,
            id: contact.id,
            ...Object.fromEntries(CONTACT_FIELDS.map((field) => [field, contact[field]])),
            blocked: false,
            assignments: {},
            sequenceAssignments: {},
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        condition: 'contact-exists',
        subject: contact.id,
      };
    },

    /**
     * The update that records a new assignment in the contact's summary. It
     * fails when the contact already has one in the sequence, when its blocked
     * flag is no longer as read (the new assignment's counters depend on it),
     * and, `guarded`, when its eligibility version moved since it was read.
     */
    addAssignment(
      orgId: number,
      contact: ContactRecord,
      assignmentId: number,
      entry: ContactAssignmentEntry,
      options: { guarded: boolean },
    ): TransactItem {
      const guard = options.guarded ? eligibilityUnchanged(contact) : null;
      return {
        Update: {
          TableName: table().name,
          Key: contactKey(orgId, contact),
          UpdateExpression: `SET assignments.#assignment = :entry, sequenceAssignments.#sequence = :assignment ${ELIGIBILITY_CHANGE.update}`,
          // The contact must still be blocked or not as read: the new assignment's `contactBlocked`
          // and the campaign's blocked stat depend on it (a concurrent contact_blocked event).
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(sequenceAssignments.#sequence) AND ${
            contact.blocked ? 'blocked = :true' : '(attribute_not_exists(blocked) OR blocked <> :true)'
          }${guard ? ` AND ${guard.condition}` : ''}`,
          ExpressionAttributeNames: {
            '#assignment': String(assignmentId),
            '#sequence': String(entry.sequenceId),
          },
          ExpressionAttributeValues: {
            ':entry': entry,
            ':assignment': assignmentId,
            ':true': true,
            ...ELIGIBILITY_CHANGE.values,
            ...guard?.values,
          },
        },
        condition: 'contact-assignment-refused',
        subject: contact.id,
      };
    },

    /**
     * The update that removes assignments from the contact's summary; it
     * requires the eligibility version the contact was read at.
     */
    withdrawAssignments(
      orgId: number,
      contact: ContactRecord,
      withdrawn: { assignmentId: number; sequenceId: number }[],
    ): TransactItem {
      const names: Record<string, string> = {};
      const removals: string[] = [];
      for (const [index, { assignmentId, sequenceId }] of withdrawn.entries()) {
        names[`#a${index}`] = String(assignmentId);
        names[`#s${index}`] = String(sequenceId);
        removals.push(`assignments.#a${index}`, `sequenceAssignments.#s${index}`);
      }
      const guard = eligibilityUnchanged(contact);
      return {
        Update: {
          TableName: table().name,
          Key: contactKey(orgId, contact),
          UpdateExpression: `REMOVE ${removals.join(', ')} ${ELIGIBILITY_CHANGE.update}`,
          ConditionExpression: guard.condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...ELIGIBILITY_CHANGE.values, ...guard.values },
        },
        condition: 'contact-changed',
        subject: contact.id,
      };
    },

    /** The update of one assignment's status (and completion time) in the contact's summary. */
    setAssignmentStatus(
      orgId: number,
      contact: { id: number; email: string | null },
      assignmentId: number,
      status: ContactAssignmentEntry['status'],
      completedAt: string | null,
    ): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: contactKey(orgId, contact),
          // A status change moves the contact's eligibility: a push judging it concurrently must judge again.
          UpdateExpression: `SET assignments.#assignment.#status = :status, assignments.#assignment.completedAt = :completedAt ${ELIGIBILITY_CHANGE.update}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#assignment': String(assignmentId), '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': status,
            ':completedAt': completedAt,
            ...ELIGIBILITY_CHANGE.values,
          },
        },
        condition: 'contact-not-found',
        subject: contact.id,
      };
    },

    /**
     * The update that sets the contact's blocked flag. It also fails when an
     * assignment was added or withdrawn since the contact was read (a
     * concurrent push), so the caller reads again and flags every assignment.
     */
    block(orgId: number, contact: ContactRecord): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: contactKey(orgId, contact),
          UpdateExpression: `SET blocked = :true ${ELIGIBILITY_CHANGE.update}`,
          ConditionExpression: 'attribute_exists(pk) AND blocked <> :true AND size(assignments) = :count',
          ExpressionAttributeValues: {
            ':true': true,
            ':count': Object.keys(contact.assignments).length,
            ...ELIGIBILITY_CHANGE.values,
          },
        },
        condition: 'contact-changed',
        subject: contact.id,
      };
    },
  };
}

/** The contacts of the configured table. */
export const contacts = /* @__PURE__ */ contactStore();
