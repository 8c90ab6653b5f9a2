import type { Actor } from '#domain/audit-log.ts';
import { changeMemberRole as change } from '#domain/member-roles.ts';
import { type Member, type MemberRole, memberEmail } from '#domain/members.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Find the member by email (MemberNotFound; OrganizationNotFound).
 * 2. Change their role; the organization's only admin cannot be made a viewer (LastAdminRequired),
 *    checked in the same transaction as the change.
 * 3. Record it in the audit log; their open sessions have the new role on their next request.
 *
 * The dashboard's Members page (`outreach-admin member add` changes a role through add-member).
 */
export function changeMemberRole(
  input: ForOrganization & { email: string; role: MemberRole; actor: Actor },
): Promise<Member> {
  return change(input.orgId, memberEmail(input.email), input.role, input.actor);
}
