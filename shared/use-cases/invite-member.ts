import type { Actor } from '#domain/audit-log.ts';
import { IdentityProviderMissing } from '#domain/errors.ts';
import type { MemberRole } from '#domain/members.ts';
import { addMember } from './add-member.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Check the email (MemberEmailInvalid) and find the configured identity provider
 *    (IdentityProviderMissing when there is none).
 * 2. Add the person as `outreach-admin member add` does (add-member): created at the provider, or
 *    found there; Cognito emails a new person a temporary password, the local provider answers a
 *    one-time password to show once. A member already of the organization gets the role (the last
 *    admin cannot be made a viewer: LastAdminRequired).
 * 3. Recorded in the audit log by the domain.
 *
 * The dashboard's Members page.
 */
export async function inviteMember(
  input: ForOrganization & { email: string; role: MemberRole; actor: Exclude<Actor, 'operator'> },
): ReturnType<typeof addMember> {
  // The directory (with the Cognito client) loads with an invitation, not with the page.
  const { identityDirectory } = await import('#platform/identity-directory.ts');
  const directory = identityDirectory();
  if (!directory) throw new IdentityProviderMissing();
  return addMember({ ...input, directory });
}
