import { listDeliveries } from '#shared/domain/webhook-deliveries.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { listWebhookDeliveriesEndpoint } from '#shared/schemas/webhooks.ts';

/** GET /public/v1/webhooks/{id}/deliveries — newest first: status, attempts, response code, latency. */
export const handler = defineEndpoint(listWebhookDeliveriesEndpoint, async ({ orgId, path, query }) =>
  listDeliveries(orgId, path.id, { take: query.take, cursor: query.cursor }),
);
