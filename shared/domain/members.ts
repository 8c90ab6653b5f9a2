import { batchGet } from '#store/batch.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import * as keys from '#store/item-keys.ts';
import { membershipItem } from '#store/item-schemas/memberships.ts';
import { organizationItem } from '#store/item-schemas/organization-item.ts';
import {
  getMembership,
  type MemberRole,
  type MembershipItem,
  members,
  membershipsOfPerson,
} from '#store/members.ts';
import { TransactionConflictError, transact } from '#store/transactions.ts';
import { type Actor, recordChange } from './audit-log.ts';
import { LastAdminRequired, MemberEmailInvalid, MemberNotFound } from './errors.ts';
import { getOrganization } from './organizations.ts';

/**
 * The people of an organization and their roles: admins change things in the
 * dashboard, viewers only see. A person (the OpenID provider's subject) may
 * belong to several organizations and picks one after sign-in. Every change
 * of a membership is in the organization's audit log. Whose member a person
 * is, which every dashboard request asks, is `membershipIn` and `roleOf`.
 */

export type { MemberRole } from '#store/members.ts';
export { MEMBER_ROLES } from '#store/members.ts';

export type Member = Omit<MembershipItem, 'orgId'>;

/** A person as the identity provider knows them. */
export interface Person {
  subject: string;
  email: string;
}

/** An email the identity providers accept as a username: one @, no spaces, at most 254 characters. */
export function memberEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new MemberEmailInvalid(`not an email address: ${JSON.stringify(raw.slice(0, 100))}`);
  return email;
}

const withoutOrg = ({ orgId: _orgId, ...member }: MembershipItem): Member => member;

/** Adds a person to the organization, or changes their role; the organization must exist. */
export async function addMember(
  orgId: number,
  person: Person,
  role: MemberRole,
  actor: Actor,
): Promise<Member> {
  await getOrganization(orgId);
  const previous = await getMembership(orgId, person.subject);
  if (previous)
    return previous.role === role ? withoutOrg(previous) : changeRole(orgId, previous, role, actor);
  const membership: MembershipItem = {
    orgId,
    subject: person.subject,
    email: person.email,
    role,
    addedAt: new Date().toISOString(),
    addedBy: actor === 'operator' ? 'operator (CLI)' : actor.email,
  };
  await members.put(membership);
  await recordChange(orgId, actor, 'member.add', `${person.email} as ${role}`);
  return withoutOrg(membership);
}

/** The organization's members, by email. */
export async function listMembers(orgId: number): Promise<Member[]> {
  await getOrganization(orgId);
  return (await members.ofOrganization(orgId)).map(withoutOrg).sort((a, b) => a.email.localeCompare(b.email));
}

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

async function changeRole(
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

/** The organization with the person's role in it, read in one request; null when they are not a member. */
export async function membershipIn(
  orgId: number,
  subject: string,
): Promise<{ orgId: number; name: string; role: MemberRole } | null> {
  const found = await batchGet(
    [keys.membership(orgId, subject), keys.organization(orgId)].map(({ pk, sk }) => ({ pk, sk })),
  );
  const membership = found.find((item) => item.type === 'membership');
  const organization = found.find((item) => item.type === 'organization');
  if (!membership || !organization) return null;
  return {
    orgId,
    name: organizationItem.parse(organization).name,
    role: membershipItem.parse(membership).role,
  };
}

/** The person's role in the organization; null when they are not a member. */
export async function roleOf(orgId: number, subject: string): Promise<MemberRole | null> {
  return (await getMembership(orgId, subject))?.role ?? null;
}

/** The organizations a person belongs to, with their names and the person's role (two requests). */
export async function organizationsOf(
  subject: string,
): Promise<{ orgId: number; name: string; role: MemberRole }[]> {
  const memberships = await membershipsOfPerson(subject);
  if (memberships.length === 0) return [];
  const found = await batchGet(memberships.map(({ orgId }) => keys.organization(orgId)));
  const names = new Map(
    found.map((item) => organizationItem.parse(item)).map((item) => [item.orgId, item.name] as const),
  );
  return memberships
    .filter(({ orgId }) => names.has(orgId))
    .map(({ orgId, role }) => ({ orgId, name: names.get(orgId)!, role }));
}
