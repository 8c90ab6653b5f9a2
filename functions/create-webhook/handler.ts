import { defineEndpoint } from '#api/http/endpoint.ts';
import { credentialAnswers } from '#platform/secrets.ts';
import { createWebhookEndpoint } from '#schemas/webhooks.ts';
import { createWebhook } from '#use-cases/create-webhook.ts';

/** POST /public/v1/webhooks — subscribes a URL; the response shows the signing secret, this once. */
export const handler = defineEndpoint(createWebhookEndpoint, (input) => createWebhook(input), {
  answers: credentialAnswers,
});
