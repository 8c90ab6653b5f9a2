import { listMembers as list, type Member } from '#domain/members.ts';
import type { ForOrganization } from './operation.ts';

/** The organization's members by email (OrganizationNotFound). `outreach-admin member list`; the members page. */
export function listMembers({ orgId }: ForOrganization): Promise<Member[]> {
  return list(orgId);
}
