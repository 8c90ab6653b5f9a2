import { createWebhook, toWebhookSubscription } from '#shared/domain/webhooks.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { createWebhookEndpoint } from '#shared/schemas/webhooks.ts';

/** POST /public/v1/webhooks — subscribes a URL; the response shows the signing secret, this once. */
export const handler = defineEndpoint(createWebhookEndpoint, async ({ orgId, body }) => {
  const { record, secret } = await createWebhook(orgId, body);
  return { ...toWebhookSubscription(record), secret };
});
