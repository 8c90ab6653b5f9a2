import { RedirectUriRefused } from './errors.ts';

/**
 * Which redirect URIs a client may register (OAuth 2.1 §2.3.1, RFC 8252 §7):
 * https; http only on a loopback host, where the response never leaves the
 * user's machine; or a private-use scheme in reverse-domain form
 * (`com.example.app:/callback`) for native apps. Anything else could carry
 * an authorization code or error out of the browser's control (plain http
 * over the network) or run in the page that follows the redirect
 * (`javascript:`, `data:`, `vbscript:`, `file:`…), none of which has a dot in
 * its scheme. A fragment is never allowed (RFC 6749 §3.1.2).
 *
 * A client that registers itself (RFC 7591) or describes itself in a
 * metadata document gets no private-use scheme: nobody vouches for it, and any
 * app on a device may claim a scheme, so only https and loopback http, where
 * the address itself says where the code goes, are taken from it.
 */

/** Who registers the URI: an operator (private-use schemes allowed), or the client itself. */
export type RedirectUriRegistrant = 'operator' | 'client';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** `com.example.app`: two or more labels, the first starting with a letter (a URI scheme must). */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)+$/;

/** Why `uri` may not be registered as a redirect URI, or null when it may. */
export function redirectUriProblem(
  uri: string,
  registrant: RedirectUriRegistrant = 'operator',
): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  // An empty fragment (`…/callback#`) is a fragment too, which URL's `hash` does not show.
  if (uri.includes('#')) return 'has a fragment';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return null;
  if (scheme === 'http') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : 'uses http on a host other than 127.0.0.1, [::1] or localhost';
  }
  if (registrant === 'client') return 'is neither https nor http on a loopback host';
  return REVERSE_DOMAIN_SCHEME.test(scheme)
    ? null
    : 'is neither https, http on a loopback host, nor a private-use scheme in reverse-domain form (com.example.app:/callback)';
}

/**
 * The form a redirect URI is registered in (the WHATWG URL serialization,
 * which lower-cases scheme and host); the authorization request must send it
 * exactly. Throws when the URI may not be registered.
 */
export function registrableRedirectUri(uri: string, registrant: RedirectUriRegistrant = 'operator'): string {
  const problem = redirectUriProblem(uri, registrant);
  if (problem) throw new RedirectUriRefused(uri, problem);
  return new URL(uri).toString();
}
