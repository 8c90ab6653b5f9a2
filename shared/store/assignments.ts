import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AssignmentStatus, ContactFields } from '#schemas/resources.ts';
import type { SnippetVariables } from '#schemas/variables.ts';
import { batchGet } from './batch.ts';
import type { SequenceRef } from './campaigns.ts';
import { CONTACT_FIELDS } from './contacts.ts';
import * as keys from './item-keys.ts';
import {
  type AssignmentRecord,
  assignmentItem,
  type EnrollmentState,
  type EnrollTarget,
} from './item-schemas/assignments.ts';
import { queryFirst } from './query.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export { ENROLLMENT_STATUSES } from '#definitions/item-fields.ts';

import type { ENROLLMENT_STATUSES } from '#definitions/item-fields.ts';

export type { AssignmentRecord, EnrollmentState, EnrollTarget };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Assignments: a contact in one of a campaign's sequences, with a copy of the
 * contact's details, its status and timestamps, its snippet variables, its
 * message counters and thread pointer, and a version that every change
 * raises. gsi1 lists a campaign's assignments newest first; gsi2 the same per
 * status.
 */

export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/** A new assignment as it is written. */
export interface NewAssignmentItem {
  assignmentId: number;
  campaignId: number;
  sequence: SequenceRef;
  contact: ContactFields & { blocked: boolean };
  status: AssignmentStatus;
  createdAt: string;
  approvedAt: string | null;
  sequencedAt: string | null;
  completedAt: string | null;
  bouncedAt: string | null;
  unsubscribedAt: string | null;
  variables: SnippetVariables;
  /** Where a scheduled assignment is to be enrolled (its sequence's provider campaign); null when nowhere. */
  enrollTarget: EnrollTarget | null;
}

/** How a batch of messages changes its assignment. */
export interface MessageEffects {
  sent: number;
  opens: number;
  /** The newest message of the batch, if newer than the assignment's last, with the thread's latest sender and subject. */
  last: { messageId: number; at: string; senderEmail: string | null; subject: string | null } | null;
  /** The batch holds a received message classified positive (or a classification made one so): the flag is set, never cleared. */
  positiveReplied: boolean;
}

export function assignmentStore(table: TableSource = tableContext) {
  return {
    /** The gsi2 partition of a campaign's assignments in one status (an assignment changing status moves there). */
    statusIndex: (orgId: number, campaignId: number, status: AssignmentStatus): string =>
      keys.campaignStatusIndex(orgId, campaignId, status).gsi2pk,

    /** Reads an assignment consistently; null when the organization has none with the id. */
    async get(orgId: number, assignmentId: number): Promise<AssignmentRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.assignment(orgId, assignmentId), ConsistentRead: true }),
      );
      return Item ? assignmentItem.parse(Item) : null;
    },

    /** The put of a new assignment (its id must be new), at version 1 with no messages yet. */
    putNew(orgId: number, assignment: NewAssignmentItem): TransactItem {
      const { assignmentId, campaignId, sequence, contact } = assignment;
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.assignment(orgId, assignmentId),
            ...keys.assignmentListing(
              orgId,
              campaignId,
              assignment.status,
              assignment.createdAt,
              assignmentId,
            ),
            type: 'assignment',
            orgId,
            assignmentId,
            campaignId,
            sequenceId: sequence.id,
            channel: sequence.channel,
            provider: sequence.provider,
            contact: {
              id: contact.id,
              ...Object.fromEntries(CONTACT_FIELDS.map((field) => [field, contact[field]])),
            },
            status: assignment.status,
            createdAt: assignment.createdAt,
            approvedAt: assignment.approvedAt,
            sequencedAt: assignment.sequencedAt,
            completedAt: assignment.completedAt,
            bouncedAt: assignment.bouncedAt,
            unsubscribedAt: assignment.unsubscribedAt,
            // A Map, so that names like `constructor` reach the marshaller as names, not as a prototype lookup.
            variables: assignment.variables,
            sentCount: 0,
            openCount: 0,
            clickCount: 0,
            contactBlocked: contact.blocked,
            ...(assignment.enrollTarget
              ? {
                  enrollTarget: assignment.enrollTarget,
                  enrollment: { status: 'pending', error: null, updatedAt: assignment.createdAt },
                }
              : {}),
            version: 1,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        condition: 'assignment-id-taken',
        subject: assignmentId,
      };
    },

    /** The update that flags an existing assignment's contact as blocked. */
    markContactBlocked(orgId: number, assignmentId: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.assignment(orgId, assignmentId),
          UpdateExpression: 'SET contactBlocked = :true ADD version :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':true': true, ':one': 1 },
        },
        condition: 'assignment-not-found',
        subject: assignmentId,
      };
    },

    /** The delete of an assignment that must still be pending approval. */
    deletePending(orgId: number, assignmentId: number): TransactItem {
      return {
        Delete: {
          TableName: table().name,
          Key: keys.assignment(orgId, assignmentId),
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pending': 'pending-approval' },
        },
        condition: 'assignment-not-pending',
        subject: assignmentId,
      };
    },

    /**
     * The update of an assignment by a batch of messages (counters, thread
     * pointer), any other attributes in `set` and the removal of those in
     * `remove`; it requires the version the assignment was read at, so
     * concurrent writers retry.
     */
    messageUpdate(
      orgId: number,
      assignment: Pick<AssignmentRecord, 'assignmentId' | 'version'>,
      effects: MessageEffects,
      set: Record<string, unknown> = {},
      remove: readonly string[] = [],
    ): TransactItem {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':version': assignment.version, ':one': 1 };
      const sets: string[] = [];
      const adds = ['version :one'];
      if (effects.sent > 0) {
        adds.push('sentCount :sent');
        values[':sent'] = effects.sent;
      }
      if (effects.opens > 0) {
        adds.push('openCount :opens');
        values[':opens'] = effects.opens;
      }
      if (effects.positiveReplied) {
        sets.push('positiveReplied = :positive');
        values[':positive'] = true;
      }
      if (effects.last) {
        sets.push('lastMessageId = :lastId', 'lastMessageAt = :lastAt');
        values[':lastId'] = effects.last.messageId;
        values[':lastAt'] = effects.last.at;
        if (effects.last.senderEmail) {
          sets.push('lastSenderEmail = :sender');
          values[':sender'] = effects.last.senderEmail;
        }
        if (effects.last.subject) {
          sets.push('lastSubject = :subject');
          values[':subject'] = effects.last.subject;
        }
      }
      Object.entries(set).forEach(([name, value], index) => {
        names[`#x${index}`] = name;
        values[`:x${index}`] = value;
        sets.push(`#x${index} = :x${index}`);
      });
      const removals = remove.map((name, index) => {
        names[`#r${index}`] = name;
        return `#r${index}`;
      });
      const clauses = [
        sets.length > 0 ? `SET ${sets.join(', ')}` : '',
        removals.length > 0 ? `REMOVE ${removals.join(', ')}` : '',
        `ADD ${adds.join(', ')}`,
      ];
      return {
        Update: {
          TableName: table().name,
          Key: keys.assignment(orgId, assignment.assignmentId),
          UpdateExpression: clauses.filter(Boolean).join(' '),
          ConditionExpression: 'version = :version',
          ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
          ExpressionAttributeValues: values,
        },
        condition: 'assignment-changed',
        subject: assignment.assignmentId,
      };
    },
  };
}

/** The assignments of the configured table. */
export const assignments = /* @__PURE__ */ assignmentStore();

// The reads of several assignments and the writes of the enrollment consumer and the raw push are
// functions of their own, not methods of `assignments`: a store object is kept whole wherever it is
// used, so the functions that need only these (the enrollment consumer, the campaign listings) do not
// carry the object, and the object is smaller in those that use it (docs/architecture.md, Bundles).

/** Reads assignments by id (BatchGetItem, 100 a request, consistent); missing ones are left out. */
export async function getAssignments(
  orgId: number,
  assignmentIds: readonly number[],
  table: TableContext = tableContext(),
): Promise<AssignmentRecord[]> {
  const items = await batchGet(
    [...new Set(assignmentIds)].map((id) => keys.assignment(orgId, id)),
    { consistent: true },
    table,
  );
  return items.map((item) => assignmentItem.parse(item));
}

/**
 * The first `limit` of a campaign's assignments, newest first, optionally
 * of one status (one index read of `limit` entries).
 */
export async function firstAssignmentsOfCampaign(
  orgId: number,
  campaignId: number,
  limit: number,
  status?: AssignmentStatus,
  table: TableContext = tableContext(),
): Promise<AssignmentRecord[]> {
  const items = status
    ? await queryFirst(
        'gsi2',
        keys.campaignStatusIndex(orgId, campaignId, status).gsi2pk,
        limit,
        'descending',
        table,
      )
    : await queryFirst(
        'gsi1',
        keys.campaignAssignmentsIndex(orgId, campaignId).gsi1pk,
        limit,
        'descending',
        table,
      );
  return items.map((item) => assignmentItem.parse(item));
}

/**
 * The update that marks an assignment as about to be sent to the provider (one transaction for a
 * batch): the next attempt of it asks the provider whether the lead arrived before adding it.
 */
export function enrollAttemptWrite(
  orgId: number,
  assignmentId: number,
  at: string,
  table: TableContext = tableContext(),
): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: keys.assignment(orgId, assignmentId),
      UpdateExpression: 'SET enrollAttemptedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    },
    condition: 'assignment-not-found',
    subject: assignmentId,
  };
}

/**
 * The update that records the outcome of an enrollment: enrolled with the provider's lead id (and
 * `sequencedAt`, kept if a provider reported it first), failed with the reason, or still pending
 * with the reason it waits (a provider campaign that takes no leads yet). The version
 * moves, so a concurrent event recorded on the state read before retries.
 */
export function enrollmentOutcomeWrite(
  orgId: number,
  assignmentId: number,
  outcome:
    | { status: 'enrolled'; leadId: string; sequencedAt: string }
    | { status: 'failed' | 'pending'; error: string },
  at: string,
  table: TableContext = tableContext(),
): TransactItem {
  const enrollment = {
    status: outcome.status,
    error: outcome.status === 'enrolled' ? null : outcome.error,
    updatedAt: at,
  };
  return {
    Update: {
      TableName: table.name,
      Key: keys.assignment(orgId, assignmentId),
      UpdateExpression:
        outcome.status === 'enrolled'
          ? 'SET enrollment = :enrollment, providerLeadId = :leadId, sequencedAt = :sequencedAt ADD version :one'
          : 'SET enrollment = :enrollment ADD version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':enrollment': enrollment,
        ':one': 1,
        ...(outcome.status === 'enrolled'
          ? { ':leadId': outcome.leadId, ':sequencedAt': outcome.sequencedAt }
          : {}),
      },
    },
    condition: 'assignment-not-found',
    subject: assignmentId,
  };
}

/** The update that replaces an existing assignment's snippet variables. */
export function variablesWrite(
  orgId: number,
  assignmentId: number,
  variables: SnippetVariables,
  table: TableContext = tableContext(),
): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: keys.assignment(orgId, assignmentId),
      UpdateExpression: 'SET variables = :variables ADD version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':variables': variables, ':one': 1 },
    },
    condition: 'assignment-not-found',
    subject: assignmentId,
  };
}
