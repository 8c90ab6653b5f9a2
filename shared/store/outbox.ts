import { randomUUID } from 'node:crypto';
import type { QueueName } from '#definitions/queues.ts';
import { tableName } from '#platform/config.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './transactions.ts';

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
export function outboxWrite(orgId: number, queue: QueueName, body: unknown): TransactItem {
  const id = randomUUID();
  return {
    Put: {
      TableName: tableName(),
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
): TransactItem {
  return {
    Put: {
      TableName: tableName(),
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
  };
}
