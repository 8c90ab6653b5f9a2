import { defineEndpoint } from '#api/http/endpoint.ts';
import { getWebhookEndpoint } from '#schemas/webhooks.ts';
import { getWebhook } from '#use-cases/get-webhook.ts';

/** GET /public/v1/webhooks/{id} */
export const handler = defineEndpoint(getWebhookEndpoint, (input) => getWebhook(input));
