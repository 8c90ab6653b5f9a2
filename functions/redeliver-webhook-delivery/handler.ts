import { defineEndpoint } from '#api/http/endpoint.ts';
import { redeliverWebhookEndpoint } from '#schemas/webhooks.ts';
import { redeliverWebhookDelivery } from '#use-cases/redeliver-webhook-delivery.ts';

/** POST /public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver — sends it again, same webhook-id. */
export const handler = defineEndpoint(redeliverWebhookEndpoint, (input) => redeliverWebhookDelivery(input));
