import { defineEndpoint } from '#api/http/endpoint.ts';
import { listWebhooks, toWebhookSubscription } from '#domain/webhooks.ts';
import { listWebhooksEndpoint } from '#schemas/webhooks.ts';

/** GET /public/v1/webhooks — the organization's subscriptions, without secrets. */
export const handler = defineEndpoint(listWebhooksEndpoint, async ({ orgId }) => ({
  webhooks: (await listWebhooks(orgId)).map(toWebhookSubscription),
}));
