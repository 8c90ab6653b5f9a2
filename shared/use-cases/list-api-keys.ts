import { type ApiKeySummary, listApiKeys as readApiKeys } from '#domain/api-keys.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the organization's keys.
 * 2. Return each one's id, scope, name, creation, expiry, last use and revocation; never a secret.
 *
 * `outreach-admin key list`, the dashboard's API keys page.
 */
export async function listApiKeys({ orgId }: ForOrganization): Promise<ApiKeySummary[]> {
  return readApiKeys(orgId);
}
