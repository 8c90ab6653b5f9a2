import { type Organization, getOrganization as readOrganization } from '#domain/organizations.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the organization the operator names (OrganizationNotFound when there is none).
 * 2. Return it: name, creation, cooldown window and arranged rate limit.
 *
 * `outreach-admin import`, which checks the organization before it writes anything, and the
 * commands whose use case trusts the organization it is given (`key list`, `webhook get`, …): the
 * API's key and the dashboard's session proved theirs, an operator only names one, so these
 * commands check it first and an unknown organization is OrganizationNotFound in every command.
 */
export async function getOrganization({ orgId }: ForOrganization): Promise<Organization> {
  return readOrganization(orgId);
}
