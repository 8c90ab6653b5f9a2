import { redeliver } from '#domain/webhook-delivery-log.ts';
import type { redeliverWebhookEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof redeliverWebhookEndpoint;

/**
 * 1. Read the subscription and the delivery (WebhookNotFound, DeliveryNotFound); the event must still
 *    be kept (DeliveryExpired after 30 days).
 * 2. Make the delivery pending under a new generation, so a retry still queued for it is dropped, and
 *    queue it, with the same `webhook-id` and payload (RedeliveryInProgress when another redelivery won).
 * 3. Return success with the pending delivery.
 *
 * POST /public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver; `outreach-admin webhook redeliver`.
 */
export async function redeliverWebhookDelivery({
  orgId,
  path,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return { success: true, delivery: await redeliver(orgId, path.id, path.deliveryId) };
}
