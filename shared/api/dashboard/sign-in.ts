import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import {
  type DashboardSession,
  endSession,
  openSession,
  pickOrganization,
  SESSION_MAX_SECONDS,
} from '#domain/dashboard-sessions.ts';
import { beginSignIn, SIGN_IN_SECONDS, startedHere, takeSignIn } from '#domain/dashboard-sign-ins.ts';
import { organizationsOf } from '#domain/members.ts';
import { configuration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import type { OpenIdClient, VerifiedPerson } from '#platform/openid-client.ts';
import { html } from './html.ts';
import {
  clearedSessionCookie,
  clearedSignInCookie,
  cookieOf,
  type FormFields,
  htmlResponse,
  seeOther,
  sessionCookie,
  signInCookie,
  signInCookieName,
} from './http.ts';
import { notice, publicPage, sessionFrame, signedInPage } from './layout.ts';
import { actionForm } from './widgets.ts';

/**
 * Signing in and out, and picking an organization. Sign-in is the OpenID
 * authorization-code flow with PKCE: `/dashboard/sign-in` remembers a state,
 * nonce and verifier (ten minutes, used once), gives the browser the state in
 * a cookie of its own and sends the person to the provider;
 * `/dashboard/callback`, in that browser only, redeems the code, verifies the
 * ID token and opens a session. Where to land afterwards is a path of this service only.
 * The OpenID client (with jose, which verifies the ID token: 18 KiB) is
 * loaded by these two steps only, not by every page of a signed-in session.
 */

const openIdSteps = () => import('#platform/openid-client.ts');

/** The dashboard's client at the OpenID provider; null when the deployment configures none. */
function openIdClient(base: string): OpenIdClient | null {
  const { oidcIssuer, oidcClientId } = configuration().dashboard;
  if (!oidcIssuer || !oidcClientId) return null;
  return {
    issuer: oidcIssuer.replace(/\/$/, ''),
    clientId: oidcClientId,
    redirectUri: `${base}/dashboard/callback`,
  };
}

/**
 * A landing path of the dashboard or the consent page; anything else lands on
 * the dashboard. Every `return_to` and `next` (sign-in, its callback, the
 * organization picker, the consent page's sign-in) goes through here.
 */
export function landingPath(raw: string | undefined): string {
  if (!raw || raw.length > 4096) return '/dashboard';
  // Only absolute paths of this service (`//host` and `/\host` would leave it), and only in a URL's own
  // characters, printable ASCII: a control character (CR, LF, anything below 0x20, DEL) would reach the
  // Location header, and the paths this service sends here come percent-encoded.
  if (!/^\/(dashboard|oauth\/authorize)(?:[/?][!-~]*)?$/.test(raw)) return '/dashboard';
  return raw;
}

const notConfigured = (base: string) =>
  htmlResponse(
    503,
    publicPage(
      base,
      'Sign-in is not configured',
      html`<p>This deployment names no OpenID provider for the dashboard (docs/dashboard.md).</p>`,
    ),
  );

export async function startSignIn(event: APIGatewayProxyEvent, base: string): Promise<APIGatewayProxyResult> {
  const client = openIdClient(base);
  if (!client) return notConfigured(base);
  const { authorizationUrl, randomToken } = await openIdSteps();
  const state = randomToken();
  const request = { state, nonce: randomToken(), codeVerifier: randomToken() };
  await beginSignIn(state, {
    codeVerifier: request.codeVerifier,
    nonce: request.nonce,
    returnTo: landingPath(event.queryStringParameters?.return_to),
  });
  // The callback must come back to this browser: it alone holds the state in a cookie.
  return seeOther(await authorizationUrl(client, request), [
    signInCookie(state, configuration().dashboard.secureCookies, SIGN_IN_SECONDS, base),
  ]);
}

export async function finishSignIn(
  event: APIGatewayProxyEvent,
  base: string,
): Promise<APIGatewayProxyResult> {
  const client = openIdClient(base);
  if (!client) return notConfigured(base);
  const { code, state, error } = event.queryStringParameters ?? {};
  const again = html`<p><a href="${base}/dashboard/sign-in">Sign in again</a></p>`;
  const secure = configuration().dashboard.secureCookies;
  // A callback from another browser than the one that started the sign-in (a link someone stopped at
  // and handed on, to sign its follower into their organization) is refused before anything is read,
  // and sets no cookie: the browser's own session, or sign-in under way, stays as it was.
  if (!state || !startedHere(state, cookieOf(event, signInCookieName(secure)))) {
    return htmlResponse(
      400,
      publicPage(
        base,
        'Sign-in not started here',
        html`<p>This sign-in was not started in this browser, or a newer sign-in in this browser replaced it. Nothing was changed.</p>${again}`,
      ),
    );
  }
  // From here on the sign-in cookie has served: every answer clears it.
  const cleared = [clearedSignInCookie(secure, base)];
  if (error || !code) {
    return htmlResponse(
      400,
      publicPage(
        base,
        'Sign-in did not complete',
        html`<p>The sign-in was cancelled or refused.</p>${again}`,
      ),
      {},
      cleared,
    );
  }
  const signIn = await takeSignIn(state);
  if (!signIn) {
    return htmlResponse(
      400,
      publicPage(
        base,
        'Sign-in expired',
        html`<p>This sign-in link is unknown, used or older than ten minutes.</p>${again}`,
      ),
      {},
      cleared,
    );
  }
  const { redeemSignIn, SignInFailed } = await openIdSteps();
  let person: VerifiedPerson;
  try {
    person = await redeemSignIn(client, { code, codeVerifier: signIn.codeVerifier, nonce: signIn.nonce });
  } catch (failure) {
    if (!(failure instanceof SignInFailed)) throw failure;
    logger.warn('Dashboard sign-in failed', { reason: failure.message });
    return htmlResponse(
      400,
      publicPage(
        base,
        'Sign-in failed',
        html`<p>The identity provider's answer could not be verified.</p>${again}`,
      ),
      {},
      cleared,
    );
  }
  const value = await openSession(person);
  const cookie = sessionCookie(value, secure, SESSION_MAX_SECONDS);
  // The consent page is where an assistant's authorization continues; the dashboard starts by picking.
  const landing = signIn.returnTo.startsWith('/oauth/')
    ? signIn.returnTo
    : `/dashboard/organizations?next=${encodeURIComponent(signIn.returnTo)}`;
  return seeOther(`${base}${landing}`, [cookie, ...cleared]);
}

export async function signOut(session: DashboardSession, base: string): Promise<APIGatewayProxyResult> {
  await endSession(session);
  return seeOther(`${base}/dashboard/signed-out`, [
    clearedSessionCookie(configuration().dashboard.secureCookies),
  ]);
}

export const signedOut = (base: string): APIGatewayProxyResult =>
  htmlResponse(
    200,
    publicPage(
      base,
      'Signed out',
      html`<p>You are signed out of the dashboard.</p><p><a href="${base}/dashboard/sign-in">Sign in</a></p>`,
    ),
  );

/** The organization picker: every organization the person belongs to; one of them is picked by a form. */
export async function organizations(
  session: DashboardSession,
  base: string,
  next: string | undefined,
  form: FormFields | null,
): Promise<APIGatewayProxyResult> {
  const mine = await organizationsOf(session.subject);
  const landing = landingPath(next);
  if (form) {
    const orgId = Number(form.get('orgId'));
    if (Number.isSafeInteger(orgId) && (await pickOrganization(session, orgId)))
      return seeOther(`${base}${landingPath(form.get('next'))}`);
  } else if (mine.length === 1 && session.organization === null) {
    // One organization: nothing to pick.
    await pickOrganization(session, mine[0]!.orgId);
    return seeOther(`${base}${landing}`);
  }
  const frame = sessionFrame(session, base);
  const content =
    mine.length === 0
      ? html`<p>${session.email} is not a member of any organization yet. An administrator adds members with <code>outreach-admin member add</code>.</p>`
      : html`<ul class="org-list">${mine.map(
          (organization) =>
            html`<li>${actionForm(frame, `${base}/dashboard/organizations`, { orgId: String(organization.orgId), next: landing }, `Open ${organization.name} (${organization.role})`)}</li>`,
        )}</ul>`;
  return htmlResponse(
    form ? 404 : 200,
    signedInPage(
      frame,
      'Choose an organization',
      content,
      form ? notice('error', 'You are not a member of that organization.') : null,
    ),
  );
}
