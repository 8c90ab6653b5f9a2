import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageInput } from '#schemas/import.ts';
import * as keys from './item-keys.ts';
import {
  type MailState,
  type MessageRecord,
  messageItem,
  type ReplyRecord,
  replyItem,
} from './item-schemas/messages.ts';
import { queryFirst } from './query.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { MailState, MessageRecord, ReplyRecord };

// The stores are built in pure-annotated calls: a bundle keeps only those its function uses
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Messages of assignments. gsi1 lists a campaign's messages newest first
 * across all its sequences. A reply also carries its mail delivery state.
 */

/** A message as it is written (the import's fields, its id known). */
export type MessageFields = Omit<MessageInput, 'assignment_id'>;

/** The message attributes of an item (what `messageItem` reads). */
function messageAttributes(
  orgId: number,
  assignment: { assignmentId: number; campaignId: number; sequenceId: number },
  message: MessageFields,
) {
  return {
    ...keys.message(orgId, message.id),
    ...keys.messageListing(
      orgId,
      assignment.campaignId,
      assignment.assignmentId,
      message.created_at,
      message.id,
    ),
    type: 'message',
    orgId,
    messageId: message.id,
    assignmentId: assignment.assignmentId,
    campaignId: assignment.campaignId,
    sequenceId: assignment.sequenceId,
    messageType: message.type,
    stepType: message.step_type,
    stepIndex: message.step_index ?? null,
    variantIndex: message.variant_index ?? null,
    responseType: message.response_type ?? null,
    subject: message.subject ?? null,
    body: message.body ?? null,
    openCount: message.open_count,
    senderEmail: message.sender_email ?? null,
    createdAt: message.created_at,
  };
}

export function messageStore(table: TableSource = tableContext) {
  return {
    /** The stored item of a message of the assignment. */
    item: messageAttributes,

    /** The record a message is stored as (what a read of it returns). */
    record(
      assignment: { assignmentId: number; campaignId: number; sequenceId: number },
      message: MessageFields,
    ): MessageRecord {
      return {
        messageId: message.id,
        assignmentId: assignment.assignmentId,
        messageType: message.type,
        stepType: message.step_type,
        stepIndex: message.step_index ?? null,
        variantIndex: message.variant_index ?? null,
        responseType: message.response_type ?? null,
        subject: message.subject ?? null,
        body: message.body ?? null,
        openCount: message.open_count,
        senderEmail: message.sender_email ?? null,
        createdAt: message.created_at,
        everPositive: false,
      };
    },

    /** Reads a message consistently; null when the organization has none with the id. */
    async get(orgId: number, messageId: number): Promise<MessageRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.message(orgId, messageId), ConsistentRead: true }),
      );
      return Item ? messageItem.parse(Item) : null;
    },

    /**
     * The update that sets a received message's response type (and marks it
     * once positive); the message must belong to the assignment.
     */
    classify(
      orgId: number,
      messageId: number,
      assignmentId: number,
      classification: { responseType: string; everPositive: boolean },
    ): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.message(orgId, messageId),
          UpdateExpression: 'SET responseType = :responseType, everPositive = :everPositive',
          ConditionExpression: 'assignmentId = :assignment',
          ExpressionAttributeValues: {
            ':responseType': classification.responseType,
            ':everPositive': classification.everPositive,
            ':assignment': assignmentId,
          },
        },
        condition: 'message-of-other-assignment',
        subject: messageId,
      };
    },

    /** The put of a new message (its id must be new). */
    putNew(
      orgId: number,
      assignment: { assignmentId: number; campaignId: number; sequenceId: number },
      message: MessageFields,
    ): TransactItem {
      return newMessagePut(orgId, assignment, message, {}, table());
    },

    /** The first `limit` of a campaign's messages, newest first (one index read of `limit` entries). */
    async firstOfCampaign(orgId: number, campaignId: number, limit: number): Promise<MessageRecord[]> {
      const items = await queryFirst(
        'gsi1',
        keys.campaignMessagesIndex(orgId, campaignId).gsi1pk,
        limit,
        'descending',
        table(),
      );
      return items.map((item) => messageItem.parse(item));
    },

    /** The update counting an open on a message, which must belong to the assignment. */
    addOpen(orgId: number, messageId: number, assignmentId: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.message(orgId, messageId),
          UpdateExpression: 'ADD openCount :one',
          ConditionExpression: 'assignmentId = :assignment',
          ExpressionAttributeValues: { ':one': 1, ':assignment': assignmentId },
        },
        condition: 'message-of-other-assignment',
        subject: messageId,
      };
    },
  };
}

/** The messages of the configured table. */
export const messages = /* @__PURE__ */ messageStore();

/**
 * The put of a new message (its id must be new), with `extra` attributes (a
 * reply's mail state): a function of its own, so that recording a reply does
 * not keep the whole message store (and the zod types of its reads) in the
 * reply endpoint's bundle.
 */
export function newMessagePut(
  orgId: number,
  assignment: { assignmentId: number; campaignId: number; sequenceId: number },
  message: MessageFields,
  extra: { mail?: MailState & { attempts: number } } = {},
  table: TableContext = tableContext(),
): TransactItem {
  return {
    Put: {
      TableName: table.name,
      Item: { ...messageAttributes(orgId, assignment, message), ...extra },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
    condition: 'message-exists',
    subject: message.id,
  };
}

/**
 * The mail state of queued replies, which only the mail sender reads and
 * updates: a store of its own, so that the functions that write messages do
 * not carry its schema (a discriminated union of the ways a reply leaves).
 */
export function replyMailStore(table: TableSource = tableContext) {
  return {
    /** A reply with its mail state, read consistently; null when there is no such message or it is no reply. */
    async getReply(orgId: number, messageId: number): Promise<ReplyRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.message(orgId, messageId), ConsistentRead: true }),
      );
      return Item?.mail ? replyItem.parse(Item) : null;
    },

    /** Sets the way a queued reply leaves (a provider reply whose connection is gone leaves by email). */
    async setMailRoute(orgId: number, messageId: number, route: MailState['route']): Promise<void> {
      const { name, client } = table();
      await client.send(
        new UpdateCommand({
          TableName: name,
          Key: keys.message(orgId, messageId),
          UpdateExpression: 'SET #mail.#route = :route',
          ExpressionAttributeNames: { '#mail': 'mail', '#route': 'route' },
          ExpressionAttributeValues: { ':route': route },
        }),
      );
    },

    /** Sets fields of a reply's mail state and counts the attempt. */
    async recordMailAttempt(orgId: number, messageId: number, fields: Record<string, string>): Promise<void> {
      const { name, client } = table();
      const names: Record<string, string> = { '#mail': 'mail', '#attempts': 'attempts' };
      const values: Record<string, unknown> = { ':one': 1 };
      const sets = Object.entries(fields).map(([field, value], index) => {
        names[`#f${index}`] = field;
        values[`:f${index}`] = value;
        return `#mail.#f${index} = :f${index}`;
      });
      await client.send(
        new UpdateCommand({
          TableName: name,
          Key: keys.message(orgId, messageId),
          UpdateExpression: `SET ${sets.join(', ')} ADD #mail.#attempts :one`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    },
  };
}

/** The replies' mail state in the configured table. */
export const replyMail = /* @__PURE__ */ replyMailStore();

/**
 * The first `limit` of an assignment's messages (its thread), newest first (one index read of
 * `limit` entries). A function, not a method of the store: only the dashboard's thread reads it.
 */
export async function firstMessagesOfAssignment(
  orgId: number,
  assignmentId: number,
  limit: number,
  table: TableContext = tableContext(),
): Promise<MessageRecord[]> {
  const items = await queryFirst(
    'gsi2',
    keys.assignmentMessagesIndex(orgId, assignmentId).gsi2pk,
    limit,
    'descending',
    table,
  );
  return items.map((item) => messageItem.parse(item));
}
