import { type Organization, getOrganization as readOrganization } from '#domain/organizations.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the organization the operator names (OrganizationNotFound when there is none).
 * 2. Return it: name, creation, cooldown window and arranged rate limit.
 *
 * `outreach-admin import`, which checks the organization before it writes anything.
 */
export async function getOrganization({ orgId }: ForOrganization): Promise<Organization> {
  return readOrganization(orgId);
}
