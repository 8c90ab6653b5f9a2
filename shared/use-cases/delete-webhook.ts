import { deleteWebhook as unsubscribe } from '#domain/webhooks.ts';
import type { deleteWebhookEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof deleteWebhookEndpoint;

/**
 * 1. Delete the subscription and count it off the organization's (WebhookNotFound when it is not the
 *    organization's); deliveries still queued for it are cancelled when they come up.
 * 2. Return success.
 *
 * DELETE /public/v1/webhooks/{id}; `outreach-admin webhook delete`.
 */
export async function deleteWebhook({
  orgId,
  path,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  await unsubscribe(orgId, path.id);
  return { success: true };
}
