import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { QueueName } from '#definitions/queues.ts';
import * as keys from './item-keys.ts';
import { type OutboxItem, outboxItem } from './item-schemas/outbox.ts';
import { type TableContext, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { OutboxItem };

/**
 * The transactional outbox: a message for a queue is written as an item in the
 * same transaction as the change that causes it; the table's stream relays it
 * to SQS (functions/stream-relay). A crash between the write and the enqueue
 * loses nothing, because the stream still holds the item.
 */

/** Outbox items expire after a week; the stream relays them within seconds. */
const OUTBOX_TTL_SECONDS = 7 * 24 * 60 * 60;

/** The item type the relay recognizes. */
export const OUTBOX_TYPE = 'outbox';

/** A Put of an outbox item carrying `body` to `queue`. */
export function outboxWrite(
  orgId: number,
  queue: QueueName,
  body: unknown,
  table: TableContext = tableContext(),
): TransactItem {
  const id = randomUUID();
  return {
    Put: {
      TableName: table.name,
      Item: {
        ...keys.outbox(orgId, id),
        type: OUTBOX_TYPE,
        orgId,
        outboxId: id,
        queue,
        body: JSON.stringify(body),
        createdAt: new Date().toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) + OUTBOX_TTL_SECONDS,
      },
    },
  };
}

/** The kind of outbox item that is a webhook event: the relay fans it out to the subscriptions. */
export const WEBHOOK_EVENT_KIND = 'webhookEvent';

/**
 * A Put of an outbox item carrying a webhook event. Its id is the event's
 * `webhook-id`; the relay turns it into one delivery (and one message on the
 * webhooks queue) per subscription that asked for the event type.
 */
export function webhookEventOutboxWrite(
  orgId: number,
  event: { id: string; type: string; payload: string },
  table: TableContext = tableContext(),
): TransactItem {
  return {
    Put: {
      TableName: table.name,
      Item: {
        ...keys.outbox(orgId, event.id),
        type: OUTBOX_TYPE,
        kind: WEBHOOK_EVENT_KIND,
        orgId,
        outboxId: event.id,
        queue: 'webhooks' satisfies QueueName,
        eventType: event.type,
        body: event.payload,
        createdAt: new Date().toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) + OUTBOX_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
    condition: 'webhook-event-exists',
  };
}

/**
 * The outbox item a stream record inserted: null for any other record (not
 * decoded at all), `malformed` for an outbox item that cannot be read.
 */
export function outboxItemOf(record: DynamoDBRecord): OutboxItem | 'malformed' | null {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || image?.type?.S !== OUTBOX_TYPE) return null;
  // The stream's attribute values are DynamoDB's own, which the Lambda types describe separately.
  const parsed = outboxItem.safeParse(unmarshall(image as Record<string, AttributeValue>));
  return parsed.success ? parsed.data : 'malformed';
}
