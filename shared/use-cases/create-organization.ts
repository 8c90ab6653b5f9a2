import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization as addOrganization } from '#domain/organizations.ts';

/** What the operator asks for: the organization's name. */
export interface NewOrganization {
  readonly name: string;
}

/**
 * Provisions an organization's rate limit where requests are throttled (on AWS, its API Gateway key
 * in the default usage plan); the operator CLI passes its own, which knows the deployment it targets.
 */
export type ProvisionRateLimit = (orgId: number) => Promise<void>;

/**
 * 1. Create the organization with a fresh id and the default settings (a 90-day cooldown window,
 *    the default rate limit).
 * 2. Provision its rate limit.
 * 3. Create its first API key.
 * 4. Return the organization's id and the key, the only time the key is shown.
 *
 * `outreach-admin org create`.
 */
export async function createOrganization(
  input: NewOrganization,
  provisionRateLimit: ProvisionRateLimit,
): Promise<{ orgId: number; apiKey: string }> {
  const organization = await addOrganization(input.name);
  await provisionRateLimit(organization.orgId);
  const { apiKey } = await createApiKey(organization.orgId);
  return { orgId: organization.orgId, apiKey };
}
