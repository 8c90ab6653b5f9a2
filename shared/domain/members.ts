import { batchGet } from '#store/batch.ts';
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
import { type Actor, recordChange } from './audit-log.ts';
import { MemberEmailInvalid } from './errors.ts';
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

export const withoutOrg = ({ orgId: _orgId, ...member }: MembershipItem): Member => member;

/** Adds a person to the organization, or changes their role; the organization must exist. */
export async function addMember(
  orgId: number,
  person: Person,
  role: MemberRole,
  actor: Actor,
): Promise<Member> {
  await getOrganization(orgId);
  const previous = await getMembership(orgId, person.subject);
  if (previous) {
    if (previous.role === role) return withoutOrg(previous);
    // Changing a role (with its last-admin condition) loads with a change, not with every session's read.
    const { changeRole } = await import('./member-roles.ts');
    return changeRole(orgId, previous, role, actor);
  }
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
