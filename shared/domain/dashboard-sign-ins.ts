import { hashSecret } from '#platform/secret-hash.ts';
import { dashboardSignIns, type SignInItem } from '#store/dashboard-sign-ins.ts';

/**
 * The dashboard's sign-ins under way (the OpenID authorization-code flow of
 * shared/api/dashboard/sign-in.ts): what a sign-in remembers until its
 * callback, addressed by the hash of its `state`, for ten minutes and once.
 * Apart from the sessions (dashboard-sessions.ts), which every request of a
 * session resumes, so that only the sign-in's requests load it.
 */

const SIGN_IN_SECONDS = 600;

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
