import { defineEndpoint } from '#api/http/endpoint.ts';
import { rotateWebhookSecret, toWebhookSubscription } from '#domain/webhooks.ts';
import { rotateWebhookSecretEndpoint } from '#schemas/webhooks.ts';

/** POST /public/v1/webhooks/{id}/rotate-secret — a new secret, shown this once; the old one signs for 24 h more. */
export const handler = defineEndpoint(rotateWebhookSecretEndpoint, async ({ orgId, path }) => {
  const { record, secret } = await rotateWebhookSecret(orgId, path.id);
  return { ...toWebhookSubscription(record), secret };
});
