import { deleteWebhook } from '#shared/domain/webhooks.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { deleteWebhookEndpoint } from '#shared/schemas/webhooks.ts';

/** DELETE /public/v1/webhooks/{id} */
export const handler = defineEndpoint(deleteWebhookEndpoint, async ({ orgId, path }) => {
  await deleteWebhook(orgId, path.id);
  return { success: true };
});
