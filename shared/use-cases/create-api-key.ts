import { type CreatedApiKey, createApiKey as issueApiKey, type NewApiKeyOptions } from '#domain/api-keys.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Create a key for the organization with its scope (`read` or `read-write`, the default), optional
 *    name and optional lifetime in days (ApiKeyOptionInvalid outside `newApiKeyOptions`): a fresh key id
 *    and 256 random bits, of which only the hash is stored.
 * 2. Return the key (`<orgId>.<secret>`), the only time it is shown, with its id, scope, name, creation
 *    and expiry.
 *
 * `outreach-admin key create`, the dashboard's API keys page.
 */
export async function createApiKey({
  orgId,
  scope,
  name,
  expiresInDays,
}: ForOrganization & NewApiKeyOptions): Promise<CreatedApiKey> {
  return issueApiKey(orgId, { scope, name, expiresInDays });
}
