import { type ApiKeySummary, revokeApiKey as revoke } from '#domain/api-keys.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Revoke the organization's key (ApiKeyNotFound when it has no such key); it stops working once the
 *    authorizer's cache of it expires, at once when it was not used in the last 5 minutes.
 * 2. Return the key's summary (as `listApiKeys` gives it) with its revocation time.
 *
 * `outreach-admin key revoke`, the dashboard's API keys page.
 */
export async function revokeApiKey({
  orgId,
  keyId,
}: ForOrganization & { keyId: number }): Promise<ApiKeySummary> {
  return revoke(orgId, keyId);
}
