import { listWebhooks as readWebhooks, toWebhookSubscription } from '#domain/webhooks.ts';
import type { listWebhooksEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listWebhooksEndpoint;

/**
 * 1. Read the organization's subscriptions, by id (one Query).
 * 2. Return them as subscription resources, never with their secrets.
 *
 * GET /public/v1/webhooks; `outreach-admin webhook list`.
 */
export async function listWebhooks({ orgId }: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return { webhooks: (await readWebhooks(orgId)).map(toWebhookSubscription) };
}
