import { defineEndpoint } from '#api/http/endpoint.ts';
import { listDeliveries } from '#domain/webhook-deliveries.ts';
import { listWebhookDeliveriesEndpoint } from '#schemas/webhooks.ts';

/** GET /public/v1/webhooks/{id}/deliveries — newest first: status, attempts, response code, latency. */
export const handler = defineEndpoint(listWebhookDeliveriesEndpoint, async ({ orgId, path, query }) =>
  listDeliveries(orgId, path.id, { take: query.take, cursor: query.cursor }),
);
