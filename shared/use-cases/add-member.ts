import type { Actor } from '#domain/audit-log.ts';
import { addMember as add, type Member, type MemberRole, memberEmail } from '#domain/members.ts';
import { getOrganization } from '#domain/organizations.ts';
import type { IdentityDirectory } from '#platform/identity-directory.ts';
import type { ForOrganization } from './operation.ts';

export type { IdentityDirectory };

/**
 * 1. Check the email (MemberEmailInvalid) and that the organization exists (OrganizationNotFound).
 * 2. Create the person at the identity provider, or find them there (Cognito invites them by
 *    email; the local provider gives a one-time password).
 * 3. Record their membership with the role (a second add changes the role), in the audit log.
 *
 * `outreach-admin member add`; the dashboard's invitation (Members page).
 */
export async function addMember(
  input: ForOrganization & { email: string; role: MemberRole; actor: Actor; directory: IdentityDirectory },
): Promise<{ member: Member; oneTimePassword: string | null; invited: boolean }> {
  const email = memberEmail(input.email);
  await getOrganization(input.orgId);
  const person = await input.directory.ensurePerson(email);
  const member = await add(input.orgId, { subject: person.subject, email }, input.role, input.actor);
  return { member, oneTimePassword: person.oneTimePassword, invited: person.invited };
}
