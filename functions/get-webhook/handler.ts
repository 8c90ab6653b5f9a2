import { getWebhook, toWebhookSubscription } from '#shared/domain/webhooks.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { getWebhookEndpoint } from '#shared/schemas/webhooks.ts';

/** GET /public/v1/webhooks/{id} */
export const handler = defineEndpoint(getWebhookEndpoint, async ({ orgId, path }) =>
  toWebhookSubscription(await getWebhook(orgId, path.id)),
);
