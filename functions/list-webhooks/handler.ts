import { defineEndpoint } from '#api/http/endpoint.ts';
import { listWebhooksEndpoint } from '#schemas/webhooks.ts';
import { listWebhooks } from '#use-cases/list-webhooks.ts';

/** GET /public/v1/webhooks — the organization's subscriptions, without secrets. */
export const handler = defineEndpoint(listWebhooksEndpoint, (input) => listWebhooks(input));
