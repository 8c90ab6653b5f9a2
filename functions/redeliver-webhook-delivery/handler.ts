import { defineEndpoint } from '#api/http/endpoint.ts';
import { redeliver } from '#domain/webhook-deliveries.ts';
import { redeliverWebhookEndpoint } from '#schemas/webhooks.ts';

/** POST /public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver — sends it again, same webhook-id. */
export const handler = defineEndpoint(redeliverWebhookEndpoint, async ({ orgId, path }) => ({
  success: true,
  delivery: await redeliver(orgId, path.id, path.deliveryId),
}));
