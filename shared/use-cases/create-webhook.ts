import { getOrganization } from '#domain/organizations.ts';
import { createWebhook as subscribe, toWebhookSubscription } from '#domain/webhooks.ts';
import type { createWebhookEndpoint } from '#schemas/webhooks.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof createWebhookEndpoint;

/**
 * 1. Check the URL against the SSRF rules (WebhookUrlRefused names the rule it breaks).
 * 2. Refuse a 26th subscription of the organization (WebhookLimitReached).
 * 3. Store the subscription with a fresh signing secret.
 * 4. Return the subscription resource with its secret, the only time the secret is shown.
 *
 * POST /public/v1/webhooks; `outreach-admin webhook create` through {@link createWebhookForOrganization}.
 */
export async function createWebhook({
  orgId,
  body,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  const { record, secret } = await subscribe(orgId, body);
  return { ...toWebhookSubscription(record), secret };
}

/**
 * 1. The organization the operator names must exist (OrganizationNotFound).
 * 2. Then as {@link createWebhook}.
 *
 * `outreach-admin webhook create`: an operator names the organization, where an API key proves it.
 */
export async function createWebhookForOrganization(
  input: OperationInput<Endpoint>,
): Promise<OperationOutput<Endpoint>> {
  await getOrganization(input.orgId);
  return createWebhook(input);
}
