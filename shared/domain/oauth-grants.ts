import { createHash, randomBytes } from 'node:crypto';
import { hashSecret } from '#platform/secret-hash.ts';
import { oauth } from '#store/oauth.ts';
import { TransactionConflictError } from '#store/transactions.ts';
import { getOAuthClient } from './oauth-clients.ts';

/**
 * Access tokens and authorization codes: opaque random values, stored only as
 * hashes, expiring by TTL. A token is bound to one organization, one client
 * and the `/mcp` resource; a code is bound to its client, redirect URI and
 * PKCE challenge, and redeemed once: its item then records the token it
 * issued, so that a replay revokes that token (RFC 6749 §4.1.2).
 */

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const CODE_TTL_SECONDS = 600;

/** What a valid token grants. */
export interface TokenGrant {
  orgId: number;
  clientId: string;
  resource: string;
  scope: string;
}

/** A presented token's grant, with the request rate its client may use on /mcp (null: the default). */
export interface VerifiedToken extends TokenGrant {
  clientRateLimit: number | null;
}

/** The token endpoint's response body (RFC 6749 §5.1). */
export interface AccessTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

const now = () => Math.floor(Date.now() / 1000);

const newAccessToken = () => `mat_${randomBytes(32).toString('base64url')}`;

const tokenResponse = (token: string, grant: TokenGrant): AccessTokenResponse => ({
  access_token: token,
  token_type: 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
  scope: grant.scope,
});

/** Issues an access token (the response body of the token endpoint). */
export async function issueAccessToken(grant: TokenGrant): Promise<AccessTokenResponse> {
  const token = newAccessToken();
  await oauth.putToken(hashSecret(token), grant, now() + ACCESS_TOKEN_TTL_SECONDS);
  return tokenResponse(token, grant);
}

/** The grant of a presented token for `resource`; null when it is unknown, expired, for another resource, or its client is revoked. */
export async function verifyAccessToken(token: string, resource: string): Promise<VerifiedToken | null> {
  if (!/^mat_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const item = await oauth.getToken(hashSecret(token));
  // DynamoDB deletes expired items lazily, so expiry is checked here.
  if (!item || item.expiresAt <= now() || item.resource !== resource) return null;
  const client = await getOAuthClient(item.clientId);
  if (!client || client.revokedAt || client.orgId !== item.orgId) return null;
  return {
    orgId: item.orgId,
    clientId: item.clientId,
    resource: item.resource,
    scope: item.scope,
    clientRateLimit: client.rateLimit,
  };
}

/** What an authorization code was issued for. */
export interface CodeGrant extends TokenGrant {
  redirectUri: string;
  codeChallenge: string;
}

/** Issues a single-use authorization code. */
export async function issueAuthorizationCode(grant: CodeGrant): Promise<string> {
  const code = `mac_${randomBytes(32).toString('base64url')}`;
  await oauth.putCode(hashSecret(code), { ...grant, expiresAt: now() + CODE_TTL_SECONDS });
  return code;
}

/** PKCE S256: base64url(SHA-256(verifier)). */
export const codeChallengeOf = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

/** RFC 7636 §4.1: a code verifier is 43 to 128 unreserved characters. */
export const isCodeVerifier = (value: string): boolean => /^[A-Za-z0-9._~-]{43,128}$/.test(value);

/** RFC 7636 §4.2: an S256 challenge is base64url of a SHA-256 digest without padding, 43 characters. */
export const isS256CodeChallenge = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

/**
 * Redeems a code for an access token, issuing the token and recording it on
 * the code in one transaction. Returns null, changing nothing, when the code
 * is unknown, expired, issued to another client (so no other client can burn
 * a code it learned), or the redirect URI or verifier does not match. A code
 * redeemed before is a replay: the token it issued is revoked, and null is
 * returned. `codeVerifier` must be a well-formed verifier (`isCodeVerifier`).
 */
export async function redeemAuthorizationCode(
  code: string,
  presented: { clientId: string; redirectUri: string | undefined; codeVerifier: string },
): Promise<AccessTokenResponse | null> {
  if (!/^mac_[A-Za-z0-9_-]{43}$/.test(code)) return null;
  const codeHash = hashSecret(code);
  const item = await oauth.getCode(codeHash);
  if (!item || item.clientId !== presented.clientId) return null;
  if (typeof item.tokenHash === 'string') {
    await revokeToken(item.tokenHash);
    return null;
  }
  if (item.expiresAt <= now() || item.redirectUri !== presented.redirectUri) return null;
  if (codeChallengeOf(presented.codeVerifier) !== item.codeChallenge) return null;

  const grant: TokenGrant = {
    orgId: item.orgId,
    clientId: item.clientId,
    resource: item.resource,
    scope: item.scope,
  };
  const token = newAccessToken();
  try {
    // The used code is kept as long as its token lives, so a replay within that time can revoke it.
    await oauth.redeemCode(codeHash, {
      hash: hashSecret(token),
      grant,
      expiresAt: now() + ACCESS_TOKEN_TTL_SECONDS,
    });
  } catch (error) {
    if (!(error instanceof TransactionConflictError)) throw error;
    // A concurrent redemption of the same code won: this one is the replay.
    const redeemed = await oauth.getCode(codeHash);
    if (redeemed?.tokenHash !== undefined) {
      await revokeToken(redeemed.tokenHash);
      return null;
    }
    // Otherwise the code expired and is gone, or the transaction failed for another reason.
    if (error.failedConditions.length > 0) return null;
    throw error;
  }
  return tokenResponse(token, grant);
}

/** Deletes an access token by the hash of its value: it stops working at once. */
async function revokeToken(tokenHash: string): Promise<void> {
  await oauth.deleteToken(tokenHash);
}
