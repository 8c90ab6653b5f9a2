import { retryOnConflict } from '#store/conflicts.ts';
import { type MemberRole, type MembershipItem, members } from '#store/members.ts';
import { TransactionConflictError, transact } from '#store/transactions.ts';
import { type Actor, recordChange } from './audit-log.ts';
import { LastAdminRequired, MemberNotFound } from './errors.ts';
import { type Member, withoutOrg } from './members.ts';
import { getOrganization } from './organizations.ts';

/**
 * Changing a member's role and removing one, which the organization's last
 * admin never undergoes. A module of its own, loaded by those changes: every
 * dashboard request reads memberships (members.ts), few change them.
 */

/** Tries of a change that keeps an admin: another admin's demotion meanwhile is read again, not refused. */
const KEEP_ADMIN_ATTEMPTS = 4;

/**
 * Writes `write` (a member's demotion or removal), and, when that member is an
 * admin, with the condition that another admin stays one, in one transaction:
 * two admins demoting each other at once cannot leave the organization with
 * none (LastAdminRequired when nobody else is an admin).
 */
async function keepingAnAdmin(
  orgId: number,
  member: MembershipItem,
  change: 'remove' | 'demote',
  write: () => ReturnType<typeof members.removal>,
): Promise<void> {
  await retryOnConflict(
    async () => {
      // Each try reads the members again: a retry sees what the lost race wrote.
      const everyone = await members.ofOrganization(orgId);
      const current = everyone.find((each) => each.subject === member.subject);
      if (!current) throw new MemberNotFound(orgId, member.email);
      if (current.role !== 'admin') return transact([write()]);
      const witness = everyone.find((each) => each.role === 'admin' && each.subject !== member.subject);
      if (!witness) throw new LastAdminRequired(member.email, change);
      await transact([write(), members.adminStill(orgId, witness.subject)]);
    },
    { attempts: KEEP_ADMIN_ATTEMPTS, baseDelayMs: 10, retryIf: () => true },
  ).catch((error: unknown) => {
    if (!(error instanceof TransactionConflictError)) throw error;
    if (error.failed.has('member-not-found')) throw new MemberNotFound(orgId, member.email);
    throw new LastAdminRequired(member.email, change);
  });
}

export async function changeRole(
  orgId: number,
  previous: MembershipItem,
  role: MemberRole,
  actor: Actor,
): Promise<Member> {
  const membership: MembershipItem = { ...previous, role };
  await keepingAnAdmin(orgId, previous, 'demote', () => members.changeRole(membership));
  await recordChange(orgId, actor, 'member.role', `${previous.email}: ${previous.role} → ${role}`);
  return withoutOrg(membership);
}

/** The member with this email (MemberNotFound). */
async function memberByEmail(orgId: number, email: string): Promise<MembershipItem> {
  await getOrganization(orgId);
  const member = (await members.ofOrganization(orgId)).find((each) => each.email === email);
  if (!member) throw new MemberNotFound(orgId, email);
  return member;
}

/** Changes a member's role; the last admin cannot be made a viewer (LastAdminRequired). */
export async function changeMemberRole(
  orgId: number,
  email: string,
  role: MemberRole,
  actor: Actor,
): Promise<Member> {
  const member = await memberByEmail(orgId, email);
  return member.role === role ? withoutOrg(member) : changeRole(orgId, member, role, actor);
}

/**
 * Removes a member found by email; their open sessions lose the organization on their next
 * request. The last admin cannot be removed (LastAdminRequired).
 */
export async function removeMember(orgId: number, email: string, actor: Actor): Promise<Member> {
  const member = await memberByEmail(orgId, email);
  await keepingAnAdmin(orgId, member, 'remove', () => members.removal(orgId, member.subject));
  await recordChange(orgId, actor, 'member.remove', `${member.email} (${member.role})`);
  return withoutOrg(member);
}
