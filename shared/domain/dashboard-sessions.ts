import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '#platform/secret-hash.ts';
import { dashboardSessions, type SessionItem } from '#store/dashboard-sessions.ts';
import type { MemberRole } from './members.ts';
import { membershipIn, roleOf } from './members.ts';

/**
 * Dashboard sessions. The cookie holds 256 random bits; only their hash is
 * stored, with the person, the organization they picked and the session's
 * CSRF token. A session lasts at most 12 hours and ends after an hour
 * without use; signing out deletes it. The person's role is read from their
 * membership on every request, so a removed member loses access at once.
 * The sign-ins that open sessions are dashboard-sign-ins.ts.
 */

export const SESSION_MAX_SECONDS = 12 * 3600;
export const SESSION_IDLE_SECONDS = 3600;
/** The idle expiry is written at most once a minute per session, not on every request. */
const TOUCH_RESOLUTION_SECONDS = 60;

const now = () => Math.floor(Date.now() / 1000);
const token = () => randomBytes(32).toString('base64url');

/** A session as a request sees it. */
export interface DashboardSession {
  /** The hash addressing the session (never the cookie's value). */
  id: string;
  subject: string;
  email: string;
  /** The organization picked, with its name and the person's role; null when none is or they left it. */
  organization: { orgId: number; name: string; role: MemberRole } | null;
  csrfToken: string;
}

/** Opens a session for a person who just signed in; returns the cookie's value. */
export async function openSession(person: { subject: string; email: string }): Promise<string> {
  const value = token();
  const at = now();
  const session: SessionItem = {
    subject: person.subject,
    email: person.email,
    orgId: null,
    csrfToken: token(),
    createdAt: new Date(at * 1000).toISOString(),
    endsAt: at + SESSION_MAX_SECONDS,
    expiresAt: at + SESSION_IDLE_SECONDS,
  };
  await dashboardSessions.create(hashSecret(value), session);
  return value;
}

/** The session a cookie's value opens, with the person's current role; null when there is none (any more). */
export async function resumeSession(value: string | undefined): Promise<DashboardSession | null> {
  if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) return null;
  const id = hashSecret(value);
  const session = await dashboardSessions.get(id);
  const at = now();
  if (!session || session.expiresAt <= at || session.endsAt <= at) return null;
  const idleUntil = Math.min(at + SESSION_IDLE_SECONDS, session.endsAt);
  // The touch and the membership read need nothing of each other: they go out together.
  const [, organization] = await Promise.all([
    idleUntil - session.expiresAt >= TOUCH_RESOLUTION_SECONDS ? dashboardSessions.touch(id, idleUntil) : null,
    session.orgId === null ? null : membershipIn(session.orgId, session.subject),
  ]);
  return { id, subject: session.subject, email: session.email, organization, csrfToken: session.csrfToken };
}

/** Switches the session to an organization the person belongs to; false when they do not. */
export async function pickOrganization(session: DashboardSession, orgId: number): Promise<boolean> {
  if ((await roleOf(orgId, session.subject)) === null) return false;
  return dashboardSessions.selectOrganization(session.id, orgId);
}

export async function endSession(session: DashboardSession): Promise<void> {
  await dashboardSessions.remove(session.id);
}

/** Whether a form's CSRF token is the session's (compared in constant time). */
export function csrfTokenMatches(session: DashboardSession, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
