import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';

/**
 * The dashboard's side of OpenID Connect (a relying party): the authorization
 * code flow with PKCE (S256) as a public client, and the ID token verified
 * against the issuer's published keys. The same code speaks to Cognito's
 * managed login on AWS and to the local OpenID provider of `npm start`; only
 * the issuer and client id differ. The issuer is configuration, never input,
 * so its URLs are trusted; every call has a deadline.
 */

/** The provider's endpoints, from its discovery document. */
interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/** Who signed in, from a verified ID token. */
export interface VerifiedPerson {
  subject: string;
  email: string;
}

/** The sign-in failed at the provider or its token did not verify; the person should start again. */
export class SignInFailed extends Error {
  override name = 'SignInFailed';
}

const DEADLINE_MS = 5000;

/** Discovery documents and key sets, per issuer, kept for the life of the process (keys refresh themselves). */
const providers = new Map<string, Promise<{ metadata: ProviderMetadata; keys: JWTVerifyGetKey }>>();

async function discover(issuer: string) {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(DEADLINE_MS),
    redirect: 'error',
  });
  if (!response.ok) throw new SignInFailed(`The OpenID provider's discovery answered ${response.status}`);
  const metadata = (await response.json()) as ProviderMetadata;
  // The document must be the issuer's own (OpenID Connect Discovery §4.3).
  if (metadata.issuer !== issuer) throw new SignInFailed('The discovery document names another issuer');
  return { metadata, keys: createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: DEADLINE_MS }) };
}

function provider(issuer: string) {
  let known = providers.get(issuer);
  if (!known) {
    known = discover(issuer);
    // A failed discovery is tried again on the next sign-in rather than remembered.
    known.catch(() => providers.delete(issuer));
    providers.set(issuer, known);
  }
  return known;
}

/** A random value for `state`, `nonce` and the PKCE verifier: 256 bits, base64url. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export interface OpenIdClient {
  issuer: string;
  clientId: string;
  redirectUri: string;
}

/** Where to send the person to sign in. */
export async function authorizationUrl(
  client: OpenIdClient,
  request: { state: string; nonce: string; codeVerifier: string },
): Promise<string> {
  const { metadata } = await provider(client.issuer);
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'openid email',
    state: request.state,
    nonce: request.nonce,
    code_challenge: challengeOf(request.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/** Redeems the code and verifies the ID token it returns (signature, issuer, audience, expiry, nonce). */
export async function redeemSignIn(
  client: OpenIdClient,
  response: { code: string; codeVerifier: string; nonce: string },
): Promise<VerifiedPerson> {
  const { metadata, keys } = await provider(client.issuer);
  const answer = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: response.code,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      code_verifier: response.codeVerifier,
    }),
    signal: AbortSignal.timeout(DEADLINE_MS),
    redirect: 'error',
  });
  if (!answer.ok) throw new SignInFailed(`The OpenID provider refused the code (${answer.status})`);
  const { id_token: idToken } = (await answer.json()) as { id_token?: unknown };
  if (typeof idToken !== 'string') throw new SignInFailed('The OpenID provider returned no ID token');
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(idToken, keys, {
      issuer: client.issuer,
      audience: client.clientId,
      algorithms: ['RS256', 'ES256', 'PS256'],
    }));
  } catch (error) {
    throw new SignInFailed(`The ID token did not verify: ${(error as Error).name}`);
  }
  if (claims.nonce !== response.nonce) throw new SignInFailed('The ID token answers another sign-in');
  if (typeof claims.sub !== 'string' || typeof claims.email !== 'string' || claims.email_verified !== true)
    throw new SignInFailed('The ID token carries no verified email');
  return { subject: claims.sub, email: claims.email.toLowerCase() };
}
