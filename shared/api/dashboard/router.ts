import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { publicBaseUrl } from '#api/http/base-url.ts';
import { csrfTokenMatches, type DashboardSession, resumeSession } from '#domain/dashboard-sessions.ts';
import { DomainError, type DomainErrorKind } from '#domain/errors.ts';
import { configuration } from '#platform/config.ts';
import { type Html, html } from './html.ts';
import { cookieOf, formOf, htmlResponse, SECURITY_HEADERS, seeOther, sessionCookieName } from './http.ts';
import { notice, type PagePath, publicPage, sessionFrame, signedInPage } from './layout.ts';
import type { PageRequest } from './page.ts';
import { DASHBOARD_PAGES } from './pages/index.ts';

/**
 * The dashboard's one entry: `/dashboard`, `/dashboard/{page}` and
 * `/dashboard/{page}/{item}`. In order: the public parts (assets, sign-in,
 * its callback, the signed-out page); then the session (none: to sign-in);
 * for a form, its size and CSRF token (a forged or missing token is 403 and
 * changes nothing); the organization picker; then the organization's pages,
 * where a form needs an admin (403 for a viewer).
 */

/**
 * Signing in and out and the organization picker (sign-in.ts), loaded by
 * those requests: a page of a signed-in session needs none of it.
 */
const signInSteps = () => import('./sign-in.ts');

/** A domain error on a form is shown on the page with the status the API would answer. */
const FORM_STATUS: Record<DomainErrorKind, number> = {
  'not-found': 404,
  invalid: 400,
  conflict: 409,
  refused: 422,
  unavailable: 502,
};

/** A file of `/dashboard/assets/…`: the style sheet and script are loaded with the first asset asked for, not at start. */
async function asset(base: string, name: string | undefined): Promise<APIGatewayProxyResult> {
  const { DASHBOARD_ASSETS } = await import('./assets.ts');
  // Own keys only: `constructor` is no asset.
  const found = name && Object.hasOwn(DASHBOARD_ASSETS, name) ? DASHBOARD_ASSETS[name] : undefined;
  if (!found) return htmlResponse(404, publicPage(base, 'Not found', html`<p>There is no such file.</p>`));
  return {
    statusCode: 200,
    headers: { ...SECURITY_HEADERS, 'content-type': found.contentType },
    body: found.body,
  };
}

function refusal(session: DashboardSession, base: string, status: number, title: string, text: Html) {
  return htmlResponse(status, signedInPage(sessionFrame(session, base), title, text));
}

/** The path the request asked for under the service's base, with its query (where to come back after sign-in). */
function requestedPath(event: APIGatewayProxyEvent): string {
  const { page, item } = event.pathParameters ?? {};
  const query = new URLSearchParams(
    Object.entries(event.queryStringParameters ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  ).toString();
  const path = `/dashboard${page ? `/${encodeURIComponent(page)}` : ''}${item ? `/${encodeURIComponent(item)}` : ''}`;
  return query ? `${path}?${query}` : path;
}

export async function serveDashboard(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const base = publicBaseUrl(event);
  const { page: pageName = '', item } = event.pathParameters ?? {};
  const method = event.httpMethod;
  if (method !== 'GET' && method !== 'POST') {
    return {
      statusCode: 405,
      headers: { ...SECURITY_HEADERS, allow: 'GET, POST', 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ message: 'Method not allowed: the dashboard takes GET and POST' }),
    };
  }
  if (method === 'GET' && item === undefined) {
    if (pageName === 'sign-in') return (await signInSteps()).startSignIn(event, base);
    if (pageName === 'callback') return (await signInSteps()).finishSignIn(event, base);
    if (pageName === 'signed-out') return (await signInSteps()).signedOut(base);
  }
  if (method === 'GET' && pageName === 'assets') return await asset(base, item);

  const session = await resumeSession(
    cookieOf(event, sessionCookieName(configuration().dashboard.secureCookies)),
  );
  if (!session) {
    if (method === 'GET')
      return seeOther(`${base}/dashboard/sign-in?return_to=${encodeURIComponent(requestedPath(event))}`);
    return htmlResponse(
      401,
      publicPage(
        base,
        'Your session has ended',
        html`<p>Nothing was changed. <a href="${base}/dashboard/sign-in">Sign in</a> and try again.</p>`,
      ),
    );
  }
  const form = method === 'POST' ? formOf(event) : null;
  if (method === 'POST') {
    if (!form) return refusal(session, base, 413, 'Form too large', html`<p>Nothing was changed.</p>`);
    if (!csrfTokenMatches(session, form.get('csrf'))) {
      return refusal(
        session,
        base,
        403,
        'Form refused',
        html`<p>This form was not sent by a page of your session, or the page is out of date. Nothing was changed. Reload the page and try again.</p>`,
      );
    }
  }
  if (pageName === 'sign-out' && form && item === undefined)
    return (await signInSteps()).signOut(session, base);
  if (pageName === 'organizations' && item === undefined) {
    return (await signInSteps()).organizations(session, base, event.queryStringParameters?.next, form);
  }
  const { organization } = session;
  if (!organization)
    return seeOther(`${base}/dashboard/organizations?next=${encodeURIComponent(requestedPath(event))}`);

  const path = Object.hasOwn(DASHBOARD_PAGES, pageName) ? (pageName as PagePath) : undefined;
  // Not loaded while the session is read: its chunk's evaluation ran before the session's request went
  // out and only moved the wait (profiled; docs/architecture.md, What a first request costs).
  const page = path === undefined ? undefined : await DASHBOARD_PAGES[path]();
  const frame = {
    base,
    current: path ?? ('' as const),
    email: session.email,
    organization,
    csrfToken: session.csrfToken,
  };
  if (!page || path === undefined || (item !== undefined && !page.hasItems)) {
    return htmlResponse(
      404,
      signedInPage(
        frame,
        'Page not found',
        html`<p>There is no such page. <a href="${base}/dashboard">Back to the overview</a></p>`,
      ),
    );
  }
  const canChange = organization.role === 'admin';
  if (form && (!canChange || !page.post)) {
    return htmlResponse(
      403,
      signedInPage(
        frame,
        'Not allowed',
        html`<p>Your role in ${organization.name} is ${organization.role}: you can see its settings but not change them. Nothing was changed.</p>`,
      ),
    );
  }
  const doneKey = event.queryStringParameters?.done;
  const request: PageRequest = {
    event,
    base,
    frame: { ...frame, current: path },
    orgId: organization.orgId,
    actor: { email: session.email },
    item,
    query: event.queryStringParameters ?? {},
    form,
    canChange,
    async show(top) {
      return htmlResponse(
        200,
        signedInPage(request.frame, page.title, await page.get({ ...request, form: null }), top),
      );
    },
  };
  try {
    if (form && page.post) return await page.post({ ...request, form });
    const done = doneKey ? (page.notices?.[doneKey] ?? null) : null;
    return htmlResponse(
      200,
      signedInPage(request.frame, page.title, await page.get(request), done ? notice('ok', done) : null),
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // What is not found (another organization's item looks the same) gets a page of its own.
    if (!form || error.kind === 'not-found') {
      const status = FORM_STATUS[error.kind];
      return htmlResponse(
        status,
        signedInPage(
          request.frame,
          status === 404 ? 'Not found' : page.title,
          html`<p>${error.message}${form ? ' Nothing was changed.' : ''}</p><p><a href="${base}/dashboard/${path}">Back</a></p>`,
        ),
      );
    }
    // The form's problem above the page as it is now: nothing was changed.
    const shown = await page.get({ ...request, form: null }).catch((again: unknown) => {
      if (again instanceof DomainError) return html`<p><a href="${base}/dashboard/${path}">Back</a></p>`;
      throw again;
    });
    return htmlResponse(
      FORM_STATUS[error.kind],
      signedInPage(request.frame, page.title, shown, notice('error', error.message)),
    );
  }
}
