import { defineEndpoint } from '#api/http/endpoint.ts';
import { deleteWebhookEndpoint } from '#schemas/webhooks.ts';
import { deleteWebhook } from '#use-cases/delete-webhook.ts';

/** DELETE /public/v1/webhooks/{id} */
export const handler = defineEndpoint(deleteWebhookEndpoint, (input) => deleteWebhook(input));
