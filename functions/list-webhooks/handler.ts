import { listWebhooks, toWebhookSubscription } from '#shared/domain/webhooks.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { listWebhooksEndpoint } from '#shared/schemas/webhooks.ts';

/** GET /public/v1/webhooks — the organization's subscriptions, without secrets. */
export const handler = defineEndpoint(listWebhooksEndpoint, async ({ orgId }) => ({
  webhooks: (await listWebhooks(orgId)).map(toWebhookSubscription),
}));
