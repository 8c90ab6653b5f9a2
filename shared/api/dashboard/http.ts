import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { bodyText, headerOf } from '#api/http/request.ts';
import type { Html } from './html.ts';

/**
 * What the dashboard's pages share at the HTTP level: its cookie, form
 * bodies, and responses that are never cached, never framed, and run only the
 * dashboard's own script and style sheet.
 */

/** The session cookie: `__Host-` (Secure, Path=/, no Domain) wherever cookies are Secure. */
export const sessionCookieName = (secure: boolean): string =>
  secure ? '__Host-outreach_session' : 'outreach_session';

/** Set-Cookie for the session: HttpOnly, SameSite=Lax, for the session's whole possible life. */
export function sessionCookie(value: string, secure: boolean, maxAgeSeconds: number): string {
  return `${sessionCookieName(secure)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the session cookie. */
export const clearedSessionCookie = (secure: boolean): string => sessionCookie('', secure, 0);

/**
 * The sign-in cookie: the `state` of the sign-in this browser started, which
 * its callback must carry. `__Secure-` wherever cookies are Secure (not
 * `__Host-`, which would need Path=/): only the callback is sent it.
 */
export const signInCookieName = (secure: boolean): string =>
  secure ? '__Secure-outreach_sign_in' : 'outreach_sign_in';

/** Set-Cookie for a sign-in under way: HttpOnly, SameSite=Lax (the provider's redirect is a top-level GET), for the callback only. */
export function signInCookie(value: string, secure: boolean, maxAgeSeconds: number, base: string): string {
  // Below the service's base path: an execute-api URL keeps its stage there.
  const path = `${new URL(base).pathname.replace(/\/$/, '')}/dashboard/callback`;
  return `${signInCookieName(secure)}=${value}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the sign-in cookie, once its callback used it. */
export const clearedSignInCookie = (secure: boolean, base: string): string =>
  signInCookie('', secure, 0, base);

/** The value of cookie `name` in the request; undefined when absent. */
export function cookieOf(event: APIGatewayProxyEvent, name: string): string | undefined {
  const header = headerOf(event.headers, 'cookie');
  for (const part of header?.split(';') ?? []) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** Forms are small: anything longer is refused before it is parsed. */
export const MAX_FORM_BYTES = 64 * 1024;

/** A submitted form's fields; a repeated field (checkboxes) keeps every value. */
export class FormFields {
  constructor(private readonly parameters: URLSearchParams) {}

  /** The field's value, trimmed; undefined when absent or empty. */
  get(name: string): string | undefined {
    const value = this.parameters.get(name)?.trim();
    return value ? value : undefined;
  }

  all(name: string): string[] {
    return this.parameters
      .getAll(name)
      .map((value) => value.trim())
      .filter(Boolean);
  }
}

/** The urlencoded body of a POST; null when it is too large. */
export function formOf(event: APIGatewayProxyEvent): FormFields | null {
  const text = bodyText(event);
  if (Buffer.byteLength(text) > MAX_FORM_BYTES) return null;
  return new FormFields(new URLSearchParams(text));
}

/**
 * Every dashboard response's headers: no caching anywhere, no framing, no
 * inline script or style, no third-party origin, forms posting only here.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export function htmlResponse(
  statusCode: number,
  page: Html,
  headers: Record<string, string> = {},
  cookies: string[] = [],
): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', ...headers },
    ...(cookies.length > 0 ? { multiValueHeaders: { 'set-cookie': cookies } } : {}),
    body: `<!doctype html>${page.text}`,
  };
}

/** A 303 to `location` (after a form: the browser GETs it). */
export function seeOther(location: string, cookies: string[] = []): APIGatewayProxyResult {
  return {
    statusCode: 303,
    headers: { ...SECURITY_HEADERS, location },
    ...(cookies.length > 0 ? { multiValueHeaders: { 'set-cookie': cookies } } : {}),
    body: '',
  };
}
