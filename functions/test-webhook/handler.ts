import { defineEndpoint } from '#api/http/endpoint.ts';
import { testWebhookEndpoint } from '#schemas/webhooks.ts';
import { testWebhook } from '#use-cases/test-webhook.ts';

/** POST /public/v1/webhooks/{id}/test — queues a signed `test` event; its delivery shows in the log. */
export const handler = defineEndpoint(testWebhookEndpoint, (input) => testWebhook(input));
