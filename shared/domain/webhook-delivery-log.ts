import { TEST_EVENT_TYPE, type WebhookDelivery, type WebhookPayload } from '#schemas/webhooks.ts';
import { allocateId } from '#store/ids.ts';
import { outboxWrite } from '#store/outbox.ts';
import { TransactionConflictError, transact } from '#store/transactions.ts';
import { type DeliveryRecord, webhookDeliveries } from '#store/webhook-deliveries.ts';
import { DeliveryExpired, DeliveryNotFound, RedeliveryInProgress } from './errors.ts';
import { type DeliveryJob, toWebhookDelivery } from './webhook-delivery-records.ts';
import { newEventId } from './webhook-events.ts';
import { getWebhook } from './webhooks.ts';

/**
 * The deliveries log of a subscription, and the deliveries asked for by hand:
 * a redelivery of one it holds, or a test event.
 */

/** A page of a subscription's deliveries, newest first; `next` continues it (null on the last page). */
export async function listDeliveries(
  orgId: number,
  webhookId: number,
  options: { take: number; cursor?: number },
): Promise<{ data: WebhookDelivery[]; next: number | null }> {
  await getWebhook(orgId, webhookId);
  // The page starts at the cursor's own delivery (when it is still there), which is left out.
  const records = (
    await webhookDeliveries.newestFirst(orgId, webhookId, options.take + 2, options.cursor)
  ).filter((record) => record.deliveryId !== options.cursor);
  const page = records.slice(0, options.take);
  return {
    data: page.map(toWebhookDelivery),
    next: records.length > options.take ? page.at(-1)!.deliveryId : null,
  };
}

async function getDelivery(orgId: number, webhookId: number, deliveryId: number): Promise<DeliveryRecord> {
  const delivery = await webhookDeliveries.get(orgId, webhookId, deliveryId);
  if (!delivery) throw new DeliveryNotFound(deliveryId);
  return delivery;
}

/**
 * Sends a delivery again, now, with the same `webhook-id` and payload: it
 * becomes pending under a new generation (any retry still queued for it is
 * dropped) and is queued through the outbox. Works on a disabled subscription,
 * so an endpoint can be checked before re-enabling it.
 */
export async function redeliver(
  orgId: number,
  webhookId: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  await getWebhook(orgId, webhookId);
  const delivery = await getDelivery(orgId, webhookId, deliveryId);
  if (!(await webhookDeliveries.eventRecord(orgId, delivery.eventId))) {
    throw new DeliveryExpired(deliveryId);
  }
  const generation = delivery.generation + 1;
  const job: DeliveryJob = {
    orgId,
    webhookId,
    deliveryId,
    eventId: delivery.eventId,
    generation,
    manual: true,
  };
  try {
    await transact([webhookDeliveries.restart(orgId, delivery), outboxWrite(orgId, 'webhooks', job)]);
  } catch (error) {
    if (error instanceof TransactionConflictError) throw new RedeliveryInProgress(deliveryId);
    throw error;
  }
  return toWebhookDelivery({ ...delivery, status: 'pending', generation, nextAttemptAt: null, error: null });
}

/** The text of the test event. */
const TEST_MESSAGE =
  'A test event from the Outreach Campaign Public API; the signature verifies with your webhook secret.';

/**
 * Queues a `test` event to one subscription (whatever its event types, even
 * disabled): an event record, a delivery and its queue message through the
 * outbox, in one transaction. Returns the pending delivery.
 */
export async function sendTestEvent(orgId: number, webhookId: number): Promise<WebhookDelivery> {
  await getWebhook(orgId, webhookId);
  const eventId = newEventId();
  const deliveryId = await allocateId('delivery');
  const payload: WebhookPayload = {
    type: TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { webhook_id: webhookId, message: TEST_MESSAGE },
  };
  const job: DeliveryJob = { orgId, webhookId, deliveryId, eventId, generation: 0, manual: true };
  const delivery = webhookDeliveries.newDelivery(orgId, {
    webhookId,
    deliveryId,
    eventId,
    eventType: TEST_EVENT_TYPE,
  });
  await transact([
    ...webhookDeliveries.fanOutWrites(
      orgId,
      { eventId, eventType: TEST_EVENT_TYPE, payload: JSON.stringify(payload) },
      [delivery],
    ),
    outboxWrite(orgId, 'webhooks', job),
  ]);
  return toWebhookDelivery(delivery);
}
