import { batchGet } from '#store/batch.ts';
import * as keys from '#store/item-keys.ts';
import { membershipItem } from '#store/item-schemas/memberships.ts';
import { organizationItem } from '#store/item-schemas/organization-item.ts';
import { getMembership, type MemberRole, membershipsOfPerson } from '#store/memberships.ts';

/**
 * Whose member a person is, and with which role: what the dashboard asks on
 * every request of a session and at sign-in, and the OAuth consent page. A
 * module of its own, apart from changing the members (members.ts), which
 * brings the audit log and the organizations' rules with it: a cold start of
 * the dashboard reads only these lookups (docs/architecture.md, Bundles).
 */

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
