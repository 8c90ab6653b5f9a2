import { defineEndpoint } from '#api/http/endpoint.ts';
import { sendTestEvent } from '#domain/webhook-deliveries.ts';
import { testWebhookEndpoint } from '#schemas/webhooks.ts';

/** POST /public/v1/webhooks/{id}/test — queues a signed `test` event; its delivery shows in the log. */
export const handler = defineEndpoint(testWebhookEndpoint, async ({ orgId, path }) => ({
  success: true,
  delivery: await sendTestEvent(orgId, path.id),
}));
