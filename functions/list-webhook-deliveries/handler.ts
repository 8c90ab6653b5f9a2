import { defineEndpoint } from '#api/http/endpoint.ts';
import { listWebhookDeliveriesEndpoint } from '#schemas/webhooks.ts';
import { listWebhookDeliveries } from '#use-cases/list-webhook-deliveries.ts';

/** GET /public/v1/webhooks/{id}/deliveries — newest first: status, attempts, response code, latency. */
export const handler = defineEndpoint(listWebhookDeliveriesEndpoint, (input) => listWebhookDeliveries(input));
