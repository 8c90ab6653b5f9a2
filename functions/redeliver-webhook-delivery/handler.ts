import { redeliver } from '#shared/domain/webhook-deliveries.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { redeliverWebhookEndpoint } from '#shared/schemas/webhooks.ts';

/** POST /public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver — sends it again, same webhook-id. */
export const handler = defineEndpoint(redeliverWebhookEndpoint, async ({ orgId, path }) => ({
  success: true,
  delivery: await redeliver(orgId, path.id, path.deliveryId),
}));
