import { defineEndpoint } from '#api/http/endpoint.ts';
import { toWebhookSubscription, updateWebhook } from '#domain/webhooks.ts';
import { updateWebhookEndpoint } from '#schemas/webhooks.ts';

/** PATCH /public/v1/webhooks/{id} — url, event types, enabled. */
export const handler = defineEndpoint(updateWebhookEndpoint, async ({ orgId, path, body }) =>
  toWebhookSubscription(await updateWebhook(orgId, path.id, body)),
);
