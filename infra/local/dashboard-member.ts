import { randomUUID } from 'node:crypto';
import { openSession, pickOrganization, resumeSession } from '#domain/dashboard-sessions.ts';
import { addMember, type MemberRole } from '#domain/members.ts';

/** The cookie a member's browser sends, and the CSRF token of its session's forms. */
export interface SignedInMember {
  email: string;
  /** `outreach_session=…`: the local stack's cookie (it serves http). */
  cookie: string;
  csrfToken: string;
}

/**
 * A member of an organization with a dashboard session picked into it, made
 * through the domain (a subject of its own, no identity provider): what the
 * request catalogue, the tenant matrix and the bench sign in with. Signing in
 * at the OpenID provider itself is the browser tests'.
 */
export async function signedInMember(
  orgId: number,
  role: MemberRole,
  email = `${role}-${randomUUID().slice(0, 8)}@members.example`,
): Promise<SignedInMember> {
  const subject = randomUUID();
  await addMember(orgId, { subject, email }, role, 'operator');
  const value = await openSession({ subject, email });
  const session = (await resumeSession(value))!;
  await pickOrganization(session, orgId);
  return { email, cookie: `outreach_session=${value}`, csrfToken: session.csrfToken };
}
