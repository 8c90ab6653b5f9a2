import { rotateWebhookSecret as rotate, toWebhookSubscription } from '#domain/webhooks.ts';
import type { rotateWebhookSecretEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof rotateWebhookSecretEndpoint;

/**
 * 1. Read the subscription (WebhookNotFound when it is not the organization's).
 * 2. Give it a new signing secret; the previous one keeps signing beside it for 24 hours.
 * 3. Return the subscription resource with the new secret, the only time it is shown.
 *
 * POST /public/v1/webhooks/{id}/rotate-secret; `outreach-admin webhook rotate-secret`.
 */
export async function rotateWebhookSecret({
  orgId,
  path,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  const { record, secret } = await rotate(orgId, path.id);
  return { ...toWebhookSubscription(record), secret };
}
