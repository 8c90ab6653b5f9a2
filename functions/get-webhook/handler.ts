import { defineEndpoint } from '#api/http/endpoint.ts';
import { getWebhook, toWebhookSubscription } from '#domain/webhooks.ts';
import { getWebhookEndpoint } from '#schemas/webhooks.ts';

/** GET /public/v1/webhooks/{id} */
export const handler = defineEndpoint(getWebhookEndpoint, async ({ orgId, path }) =>
  toWebhookSubscription(await getWebhook(orgId, path.id)),
);
