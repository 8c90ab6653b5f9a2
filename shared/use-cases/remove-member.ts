import type { Actor } from '#domain/audit-log.ts';
import { removeMember as remove } from '#domain/member-roles.ts';
import { type Member, memberEmail } from '#domain/members.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Find the member by email (MemberNotFound; OrganizationNotFound).
 * 2. Remove the membership: their sessions lose the organization on their next request.
 * 3. Record it in the audit log. The person stays at the identity provider (other
 *    organizations may have them).
 *
 * `outreach-admin member remove`.
 */
export function removeMember(input: ForOrganization & { email: string; actor: Actor }): Promise<Member> {
  return remove(input.orgId, memberEmail(input.email), input.actor);
}
