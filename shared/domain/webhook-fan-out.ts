import { allocateIds } from '#store/ids.ts';
import { MAX_TRANSACTION_ITEMS, TransactionConflictError, transact } from '#store/transactions.ts';
import { type EventRecord, webhookDeliveries } from '#store/webhook-deliveries.ts';
import type { DeliveryJob } from './webhook-delivery-records.ts';
import type { WebhookRecord } from './webhooks.ts';

/**
 * Fan-out: the relay turns an event into an event record and one delivery
 * per subscription, in one conditional transaction, so a relay that retries
 * reuses them; each delivery becomes one message on the webhooks queue.
 */

const jobsOf = (orgId: number, eventId: string, record: EventRecord): DeliveryJob[] =>
  record.deliveries.map((delivery) => ({
    orgId,
    webhookId: delivery.webhookId,
    deliveryId: delivery.deliveryId,
    eventId,
    generation: 0,
  }));

/**
 * Fans an event out to the organization's enabled subscriptions for its type
 * that existed when it occurred: writes the event record and one delivery
 * each, and returns the queue messages to send. Idempotent: an event fanned
 * out before returns the same deliveries, and one relayed again later (a
 * retried or replayed stream record) reaches no subscription created since.
 */
export async function fanOutWebhookEvent(
  orgId: number,
  event: { eventId: string; eventType: string; payload: string; occurredAt: string },
  subscriptionsOf: (orgId: number) => Promise<WebhookRecord[]>,
): Promise<DeliveryJob[]> {
  const existing = await webhookDeliveries.eventRecord(orgId, event.eventId);
  if (existing) return jobsOf(orgId, event.eventId, existing);
  const targets = (await subscriptionsOf(orgId))
    .filter(
      (subscription) =>
        subscription.enabled &&
        subscription.events.some((type) => type === event.eventType) &&
        subscription.createdAt <= event.occurredAt,
    )
    .slice(0, MAX_TRANSACTION_ITEMS - 1);
  if (targets.length === 0) return [];
  const ids = await allocateIds('delivery', targets.length);
  const deliveries = targets.map((subscription, index) =>
    webhookDeliveries.newDelivery(orgId, {
      webhookId: subscription.webhookId,
      deliveryId: ids[index]!,
      eventId: event.eventId,
      eventType: event.eventType,
    }),
  );
  try {
    await transact(webhookDeliveries.fanOutWrites(orgId, event, deliveries));
  } catch (error) {
    // Another relay invocation fanned the same event out meanwhile: use its deliveries.
    if (error instanceof TransactionConflictError && error.failed.has('event-fanned-out')) {
      const winner = await webhookDeliveries.eventRecord(orgId, event.eventId);
      if (winner) return jobsOf(orgId, event.eventId, winner);
    }
    throw error;
  }
  return deliveries.map(({ webhookId, deliveryId }) => ({
    orgId,
    webhookId,
    deliveryId,
    eventId: event.eventId,
    generation: 0,
  }));
}
