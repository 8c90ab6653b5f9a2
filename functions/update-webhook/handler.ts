import { defineEndpoint } from '#api/http/endpoint.ts';
import { updateWebhookEndpoint } from '#schemas/webhooks.ts';
import { updateWebhook } from '#use-cases/update-webhook.ts';

/** PATCH /public/v1/webhooks/{id} — url, event types, enabled. */
export const handler = defineEndpoint(updateWebhookEndpoint, (input) => updateWebhook(input));
