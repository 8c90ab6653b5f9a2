import { sendTestEvent } from '#domain/webhook-delivery-log.ts';
import type { testWebhookEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof testWebhookEndpoint;

/**
 * 1. Read the subscription (WebhookNotFound when it is not the organization's); its event types and
 *    whether it is enabled do not matter.
 * 2. Record a signed `test` event and its delivery, and queue the delivery, in one transaction.
 * 3. Return success with the pending delivery, which the deliveries log then shows.
 *
 * POST /public/v1/webhooks/{id}/test; `outreach-admin webhook test`.
 */
export async function testWebhook({
  orgId,
  path,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return { success: true, delivery: await sendTestEvent(orgId, path.id) };
}
