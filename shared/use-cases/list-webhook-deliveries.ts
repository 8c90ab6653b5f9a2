import { listDeliveries } from '#domain/webhook-delivery-log.ts';
import type { listWebhookDeliveriesEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listWebhookDeliveriesEndpoint;

/**
 * 1. Read the subscription (WebhookNotFound when it is not the organization's).
 * 2. Read `take` of its deliveries, newest first, older than the cursor's when one is given.
 * 3. Return them (status, attempts, response code, latency) with `next`, the cursor of the following
 *    page, or null on the last.
 *
 * GET /public/v1/webhooks/{id}/deliveries; `outreach-admin webhook deliveries`.
 */
export async function listWebhookDeliveries({
  orgId,
  path,
  query,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return listDeliveries(orgId, path.id, { take: query.take, cursor: query.cursor });
}
