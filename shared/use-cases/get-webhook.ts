import { getWebhook as readWebhook, toWebhookSubscription } from '#domain/webhooks.ts';
import type { getWebhookEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof getWebhookEndpoint;

/**
 * 1. Read the subscription (one GetItem); another organization's, or an unknown one, is WebhookNotFound.
 * 2. Return it as the subscription resource, without its secret.
 *
 * GET /public/v1/webhooks/{id}; `outreach-admin webhook get`.
 */
export async function getWebhook({
  orgId,
  path,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return toWebhookSubscription(await readWebhook(orgId, path.id));
}
