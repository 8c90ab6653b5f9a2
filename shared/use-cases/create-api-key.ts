import { createApiKey as issueApiKey } from '#domain/api-keys.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Create a key for the organization: a fresh key id and 256 random bits, of which only the hash is
 *    stored.
 * 2. Return the key id and the key (`<orgId>.<secret>`), the only time the key is shown.
 *
 * `outreach-admin key create`.
 */
export async function createApiKey({ orgId }: ForOrganization): Promise<{ keyId: number; apiKey: string }> {
  return issueApiKey(orgId);
}
