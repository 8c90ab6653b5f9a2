import { defineEndpoint } from '#api/http/endpoint.ts';
import { createWebhook, toWebhookSubscription } from '#domain/webhooks.ts';
import { createWebhookEndpoint } from '#schemas/webhooks.ts';

/** POST /public/v1/webhooks — subscribes a URL; the response shows the signing secret, this once. */
export const handler = defineEndpoint(createWebhookEndpoint, async ({ orgId, body }) => {
  const { record, secret } = await createWebhook(orgId, body);
  return { ...toWebhookSubscription(record), secret };
});
