import { type ApiKeySummary, listApiKeys as readApiKeys } from '#domain/api-keys.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the organization's keys.
 * 2. Return each one's id, creation, last use and revocation; never a secret.
 *
 * `outreach-admin key list`.
 */
export async function listApiKeys({ orgId }: ForOrganization): Promise<ApiKeySummary[]> {
  return readApiKeys(orgId);
}
