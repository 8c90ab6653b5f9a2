import { updateWebhook as changeWebhook, toWebhookSubscription } from '#domain/webhooks.ts';
import type { updateWebhookEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof updateWebhookEndpoint;

/**
 * 1. Check a new URL against the SSRF rules (WebhookUrlRefused).
 * 2. Change the URL, the event types or the enabled flag of the subscription (WebhookNotFound when it
 *    is not the organization's); enabling clears why it was disabled and its failure streak.
 * 3. Return the subscription resource as it now is.
 *
 * PATCH /public/v1/webhooks/{id}; `outreach-admin webhook update`.
 */
export async function updateWebhook({
  orgId,
  path,
  body,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return toWebhookSubscription(await changeWebhook(orgId, path.id, body));
}
