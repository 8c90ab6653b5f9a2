import { toWebhookSubscription, updateWebhook } from '#shared/domain/webhooks.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { updateWebhookEndpoint } from '#shared/schemas/webhooks.ts';

/** PATCH /public/v1/webhooks/{id} — url, event types, enabled. */
export const handler = defineEndpoint(updateWebhookEndpoint, async ({ orgId, path, body }) =>
  toWebhookSubscription(await updateWebhook(orgId, path.id, body)),
);
