import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch.ts';
import * as keys from './item-keys.ts';
import { sortableNumber } from './item-keys.ts';
import {
  type DeliveryRecord,
  deliveryItem,
  type EventRecord,
  eventRecordItem,
} from './item-schemas/webhook-deliveries.ts';
import { webhookItem } from './item-schemas/webhooks.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';
import type { WebhookRecord } from './webhooks.ts';

export type { DeliveryRecord, EventRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Webhook deliveries: one per (event, subscription), in the subscription's
 * partition newest id last, and the event records they were fanned out from
 * (the payload, kept for redelivery, and the deliveries made of it). Both
 * are kept 30 days.
 */

/** Deliveries and event payloads are kept this long (the deliveries log, redelivery). */
const RETENTION_SECONDS = 30 * 24 * 60 * 60;

const expiresAt = () => Math.floor(Date.now() / 1000) + RETENTION_SECONDS;

/** What a delivery attempt reads: the delivery, its subscription and its event, each null when gone. */
export interface DispatchState {
  delivery: DeliveryRecord | null;
  webhook: WebhookRecord | null;
  event: EventRecord | null;
}

/** A delivery as it is created: pending, never attempted. */
function newDelivery(
  orgId: number,
  delivery: { webhookId: number; deliveryId: number; eventId: string; eventType: string },
): DeliveryRecord {
  return {
    orgId,
    ...delivery,
    status: 'pending',
    attempts: 0,
    generation: 0,
    responseCode: null,
    latencyMs: null,
    error: null,
    createdAt: new Date().toISOString(),
    lastAttemptAt: null,
    nextAttemptAt: null,
    deliveredAt: null,
  };
}

export function webhookDeliveryStore(table: TableSource = tableContext) {
  return {
    newDelivery,

    /**
     * The event record and its new deliveries (`deliveries`, pending), written
     * only if the event was not fanned out before: the event record's put
     * comes first and fails then.
     */
    fanOutWrites(
      orgId: number,
      event: { eventId: string; eventType: string; payload: string },
      deliveries: DeliveryRecord[],
    ): TransactItem[] {
      const { name } = table();
      const until = expiresAt();
      return [
        {
          Put: {
            TableName: name,
            Item: {
              ...keys.webhookEvent(orgId, event.eventId),
              type: 'webhookEventRecord',
              orgId,
              eventId: event.eventId,
              eventType: event.eventType,
              payload: event.payload,
              deliveries: deliveries.map(({ webhookId, deliveryId }) => ({ webhookId, deliveryId })),
              createdAt: new Date().toISOString(),
              expiresAt: until,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
          condition: 'event-fanned-out',
        },
        ...deliveries.map(
          (delivery): TransactItem => ({
            Put: {
              TableName: name,
              Item: {
                ...keys.webhookDelivery(orgId, delivery.webhookId, delivery.deliveryId),
                type: 'webhookDelivery',
                orgId,
                webhookId: delivery.webhookId,
                deliveryId: delivery.deliveryId,
                eventId: delivery.eventId,
                eventType: delivery.eventType,
                status: delivery.status,
                attempts: delivery.attempts,
                generation: delivery.generation,
                createdAt: delivery.createdAt,
                expiresAt: until,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
            condition: 'delivery-id-taken',
            subject: delivery.deliveryId,
          }),
        ),
      ];
    },

    /** An event record, read consistently; null when it was never written or is no longer kept. */
    async eventRecord(orgId: number, eventId: string): Promise<EventRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.webhookEvent(orgId, eventId), ConsistentRead: true }),
      );
      return Item ? eventRecordItem.parse(Item) : null;
    },

    /** One delivery, read consistently; null when the subscription has none with the id. */
    async get(orgId: number, webhookId: number, deliveryId: number): Promise<DeliveryRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({
          TableName: name,
          Key: keys.webhookDelivery(orgId, webhookId, deliveryId),
          ConsistentRead: true,
        }),
      );
      return Item ? deliveryItem.parse(Item) : null;
    },

    /**
     * Up to `limit` of a subscription's deliveries, newest first, from the
     * one with id `from` (included) when given (one Query).
     */
    async newestFirst(
      orgId: number,
      webhookId: number,
      limit: number,
      from?: number,
    ): Promise<DeliveryRecord[]> {
      const { name, client } = table();
      const { pk, skPrefix } = keys.webhookDeliveriesOf(orgId, webhookId);
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression:
            from === undefined
              ? 'pk = :pk AND begins_with(sk, :prefix)'
              : 'pk = :pk AND sk BETWEEN :prefix AND :before',
          ExpressionAttributeValues: {
            ':pk': pk,
            ':prefix': skPrefix,
            ...(from !== undefined && { ':before': `${skPrefix}${sortableNumber(from)}` }),
          },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return Items.map((item) => deliveryItem.parse(item));
    },

    /** The delivery, its subscription and its event, read consistently in one BatchGetItem. */
    async readForDispatch(
      orgId: number,
      delivery: { webhookId: number; deliveryId: number; eventId: string },
    ): Promise<DispatchState> {
      const deliveryKey = keys.webhookDelivery(orgId, delivery.webhookId, delivery.deliveryId);
      const webhookKey = keys.webhook(orgId, delivery.webhookId);
      const eventKey = keys.webhookEvent(orgId, delivery.eventId);
      const items = await batchGet([deliveryKey, webhookKey, eventKey], { consistent: true }, table());
      const find = (key: { pk: string; sk: string }) =>
        items.find((item) => item.pk === key.pk && item.sk === key.sk);
      const [deliveryFound, webhookFound, eventFound] = [find(deliveryKey), find(webhookKey), find(eventKey)];
      return {
        delivery: deliveryFound ? deliveryItem.parse(deliveryFound) : null,
        webhook: webhookFound ? webhookItem.parse(webhookFound) : null,
        event: eventFound ? eventRecordItem.parse(eventFound) : null,
      };
    },

    /**
     * Records an attempt's outcome on the delivery (`fields`, and one more
     * attempt when `countAttempt`), unless a redelivery since gave it another
     * generation: that one owns the delivery now.
     */
    async recordAttempt(
      orgId: number,
      delivery: { webhookId: number; deliveryId: number; generation: number },
      fields: Record<string, unknown>,
      countAttempt: boolean,
    ): Promise<void> {
      const { name, client } = table();
      const names: Record<string, string> = { '#generation': 'generation' };
      const values: Record<string, unknown> = { ':generation': delivery.generation };
      const sets = Object.entries(fields).map(([attribute, value], index) => {
        names[`#f${index}`] = attribute;
        values[`:f${index}`] = value;
        return `#f${index} = :f${index}`;
      });
      if (countAttempt) {
        names['#attempts'] = 'attempts';
        values[':one'] = 1;
      }
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.webhookDelivery(orgId, delivery.webhookId, delivery.deliveryId),
            UpdateExpression: `SET ${sets.join(', ')}${countAttempt ? ' ADD #attempts :one' : ''}`,
            ConditionExpression: '#generation = :generation',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },

    /**
     * The update that makes a delivery pending again under the next
     * generation; it fails when its generation is no longer `current`.
     */
    restart(
      orgId: number,
      delivery: Pick<DeliveryRecord, 'webhookId' | 'deliveryId' | 'generation'>,
    ): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.webhookDelivery(orgId, delivery.webhookId, delivery.deliveryId),
          UpdateExpression:
            'SET #status = :pending, #generation = :next, nextAttemptAt = :null, #error = :null',
          ConditionExpression: '#generation = :current',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#generation': 'generation' },
          ExpressionAttributeValues: {
            ':pending': 'pending',
            ':next': delivery.generation + 1,
            ':current': delivery.generation,
            ':null': null,
          },
        },
        condition: 'delivery-generation-moved',
      };
    },
  };
}

/** The webhook deliveries of the configured table. */
export const webhookDeliveries = /* @__PURE__ */ webhookDeliveryStore();
