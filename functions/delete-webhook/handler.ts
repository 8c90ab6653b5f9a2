import { defineEndpoint } from '#api/http/endpoint.ts';
import { deleteWebhook } from '#domain/webhooks.ts';
import { deleteWebhookEndpoint } from '#schemas/webhooks.ts';

/** DELETE /public/v1/webhooks/{id} */
export const handler = defineEndpoint(deleteWebhookEndpoint, async ({ orgId, path }) => {
  await deleteWebhook(orgId, path.id);
  return { success: true };
});
