import { timingSafeEqual } from 'node:crypto';
import { hashSecret } from '#platform/secret-hash.ts';
import { dashboardSignIns, type SignInItem } from '#store/dashboard-sign-ins.ts';

/**
 * The dashboard's sign-ins under way (the OpenID authorization-code flow of
 * shared/api/dashboard/sign-in.ts): what a sign-in remembers until its
 * callback, addressed by the hash of its `state`, for ten minutes and once,
 * and only for the browser that started it (`startedHere`).
 * Apart from the sessions (dashboard-sessions.ts), which every request of a
 * session resumes, so that only the sign-in's requests load it.
 */

/** How long a sign-in may take, from its start to its callback. */
export const SIGN_IN_SECONDS = 600;

const now = () => Math.floor(Date.now() / 1000);

/** Remembers a sign-in under way, addressed by its `state`. */
export async function beginSignIn(state: string, signIn: Omit<SignInItem, 'expiresAt'>): Promise<void> {
  await dashboardSignIns.put(hashSecret(state), { ...signIn, expiresAt: now() + SIGN_IN_SECONDS });
}

/** The sign-in a callback's `state` names, once; null when unknown, used or expired. */
export async function takeSignIn(state: string): Promise<SignInItem | null> {
  const signIn = await dashboardSignIns.take(hashSecret(state));
  return signIn && signIn.expiresAt > now() ? signIn : null;
}

/**
 * Whether a callback's `state` is the one the browser's sign-in cookie holds:
 * the callback comes from the browser that started the sign-in, not from a
 * link someone else stopped at (login CSRF: following it would sign the
 * browser into that person's organization). Compared in constant time, as
 * hashes of equal length.
 */
export function startedHere(state: string, cookieState: string | undefined): boolean {
  if (cookieState === undefined) return false;
  return timingSafeEqual(Buffer.from(hashSecret(state), 'hex'), Buffer.from(hashSecret(cookieState), 'hex'));
}
