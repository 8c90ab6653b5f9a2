import { createHash, randomBytes } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '#definitions/oauth-limits.ts';
import { hashSecret } from '#platform/secret-hash.ts';
import { type IssuedPair, oauth, type TokenRecord } from '#store/oauth.ts';
import { getAccessToken, tokenStanding } from '#store/oauth-token-checks.ts';
import { TransactionConflictError } from '#store/transactions.ts';
import { approvalStands, standingApproval } from './assistant-grants.ts';
import { isStoredClientId, type TokenEndpointClient } from './oauth-clients.ts';

/**
 * Access tokens, refresh tokens and authorization codes: opaque random values,
 * stored only as hashes, expiring by TTL. A token is bound to one
 * organization, one client, the `/mcp` resource and a scope, and carries the
 * organization's approval of the client it was issued under
 * (`./assistant-grants.ts`): revoking that grant ends it.
 *
 * A code is bound to its client, redirect URI and PKCE challenge, and redeemed
 * once, for a new token family: an access token and, when the client may hold
 * them, a refresh token. A refresh token is rotated on every use (the old one
 * is consumed, a new pair issued in the family); presenting a consumed one
 * again, or redeeming a code again (RFC 6749 §4.1.2), is taken for theft and
 * revokes the whole family, the newest tokens included. An access token that
 * a refresh replaced still works until it expires (an hour at most), unless
 * its family or grant is revoked.
 */

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
  refresh_token?: string;
}

const ACCESS_TOKEN = /^mat_[A-Za-z0-9_-]{43}$/;
const REFRESH_TOKEN = /^mrt_[A-Za-z0-9_-]{43}$/;
const AUTHORIZATION_CODE = /^mac_[A-Za-z0-9_-]{43}$/;
const CODE_TTL_SECONDS = 600;

const now = () => Math.floor(Date.now() / 1000);

const opaque = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

const tokenResponse = (accessToken: string, scope: string, refreshToken?: string): AccessTokenResponse => ({
  access_token: accessToken,
  token_type: 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
  scope,
  ...(refreshToken !== undefined && { refresh_token: refreshToken }),
});

/** A new pair of `familyId` for `grant`: an access token, and a refresh token when the client may hold one. */
function newPair(
  grant: Omit<TokenRecord, 'expiresAt'>,
  client: TokenEndpointClient,
  familyId: string,
): { issued: IssuedPair; response: AccessTokenResponse } {
  const accessToken = opaque('mat_');
  const refreshToken = client.grantTypes.includes('refresh_token') ? opaque('mrt_') : undefined;
  return {
    issued: {
      familyId,
      accessTokenHash: hashSecret(accessToken),
      access: { ...grant, expiresAt: now() + ACCESS_TOKEN_TTL_SECONDS },
      ...(refreshToken !== undefined && {
        refresh: { hash: hashSecret(refreshToken), expiresAt: now() + REFRESH_TOKEN_TTL_SECONDS },
      }),
    },
    response: tokenResponse(accessToken, grant.scope, refreshToken),
  };
}

/** Revokes every token of a family at once. */
const revokeFamily = (familyId: string) => oauth.revokeFamily(familyId, new Date().toISOString());

/**
 * Issues an access token by the client-credentials grant (no refresh token:
 * the client can ask again). Null when the client is no operator client, the
 * only kind bound to an organization, or its organization revoked it.
 */
export async function issueClientCredentialsToken(
  client: TokenEndpointClient,
  grant: { resource: string; scope: string },
): Promise<AccessTokenResponse | null> {
  if (client.kind !== 'operator' || client.orgId === null) return null;
  const approvalId = await standingApproval(client.orgId, client);
  if (!approvalId) return null;
  const token = opaque('mat_');
  await oauth.putToken(hashSecret(token), {
    orgId: client.orgId,
    clientId: client.clientId,
    ...grant,
    approvalId,
    expiresAt: now() + ACCESS_TOKEN_TTL_SECONDS,
  });
  return tokenResponse(token, grant.scope);
}

/**
 * The grant of a presented token for `resource`; null when it is unknown,
 * expired, for another resource, or no longer stands: its client revoked (or
 * an operator client's moved to another organization), its organization's
 * grant revoked, or its family revoked. One GetItem and one BatchGetItem.
 * `alongside`, when given, runs with the token's client id while its standing
 * is read (a token that is unknown, expired or for another resource never
 * reaches it), and what it throws is thrown.
 */
export async function verifyAccessToken(
  token: string,
  resource: string,
  alongside?: (clientId: string) => Promise<void>,
): Promise<VerifiedToken | null> {
  if (!ACCESS_TOKEN.test(token)) return null;
  const item = await getAccessToken(hashSecret(token));
  // DynamoDB deletes expired items lazily, so expiry is checked here.
  if (!item || item.expiresAt <= now() || item.resource !== resource) return null;
  const storedClient = isStoredClientId(item.clientId);
  const [{ client, grant, family }] = await Promise.all([
    tokenStanding({
      orgId: item.orgId,
      clientId: item.clientId,
      storedClient,
      familyId: item.familyId,
    }),
    alongside?.(item.clientId),
  ]);
  if (storedClient && (!client || client.revokedAt)) return null;
  if (client?.kind === 'operator' && client.orgId !== item.orgId) return null;
  if (!approvalStands(grant, item.approvalId)) return null;
  if (item.familyId !== undefined && (!family || family.revokedAt)) return null;
  return {
    orgId: item.orgId,
    clientId: item.clientId,
    resource: item.resource,
    scope: item.scope,
    clientRateLimit: client?.kind === 'operator' ? client.rateLimit : null,
  };
}

/** What an authorization code was issued for. */
export interface CodeGrant extends TokenGrant {
  redirectUri: string;
  codeChallenge: string;
}

/**
 * Issues a single-use authorization code (10 minutes). For a client other
 * than an operator's, the organization's approval (`approveAssistant`) must
 * be recorded first: the code is redeemed only while it stands.
 */
export async function issueAuthorizationCode(grant: CodeGrant): Promise<string> {
  const code = opaque('mac_');
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
 * Redeems a code for a new token family, writing the family and its first
 * pair and recording the family on the code in one transaction. Returns null,
 * changing nothing, when the code is unknown, expired, issued to another
 * client (so no other client can burn a code it learned), the redirect URI or
 * verifier does not match, or the organization's grant of the client does not
 * stand. A code redeemed before is a replay: its family is revoked, and null
 * returned. `codeVerifier` must be a well-formed verifier (`isCodeVerifier`).
 */
export async function redeemAuthorizationCode(
  code: string,
  presented: { client: TokenEndpointClient; redirectUri: string | undefined; codeVerifier: string },
): Promise<AccessTokenResponse | null> {
  if (!AUTHORIZATION_CODE.test(code)) return null;
  const codeHash = hashSecret(code);
  const item = await oauth.getCode(codeHash);
  if (!item || item.clientId !== presented.client.clientId) return null;
  if (item.familyId !== undefined) {
    await revokeFamily(item.familyId);
    return null;
  }
  if (item.expiresAt <= now() || item.redirectUri !== presented.redirectUri) return null;
  if (codeChallengeOf(presented.codeVerifier) !== item.codeChallenge) return null;
  const approvalId = await standingApproval(item.orgId, presented.client);
  if (!approvalId) return null;

  const { issued, response } = newPair(
    { orgId: item.orgId, clientId: item.clientId, resource: item.resource, scope: item.scope, approvalId },
    presented.client,
    randomBytes(16).toString('base64url'),
  );
  try {
    await oauth.redeemCode(codeHash, issued);
  } catch (error) {
    if (!(error instanceof TransactionConflictError)) throw error;
    // A concurrent redemption of the same code won: this one is the replay.
    const redeemed = await oauth.getCode(codeHash);
    if (redeemed?.familyId !== undefined) {
      await revokeFamily(redeemed.familyId);
      return null;
    }
    // Otherwise the code expired and is gone, or the transaction failed for another reason.
    if (error.failed.size > 0) return null;
    throw error;
  }
  return response;
}

/**
 * Exchanges a refresh token for a new pair of its family, consuming it.
 * Returns null, changing nothing, when it is unknown, expired, another
 * client's, or no longer stands (its family or the organization's grant
 * revoked). A consumed refresh token presented again, or one consumed by a
 * concurrent request meanwhile, is reuse: the family is revoked, and null
 * returned. The new tokens keep the organization, resource and scope.
 */
export async function refreshAccessToken(
  refreshToken: string,
  presented: { client: TokenEndpointClient },
): Promise<AccessTokenResponse | null> {
  if (!REFRESH_TOKEN.test(refreshToken)) return null;
  const refreshHash = hashSecret(refreshToken);
  const item = await oauth.getRefreshToken(refreshHash);
  const { client } = presented;
  if (!item || item.clientId !== client.clientId) return null;
  if (item.consumedAt !== undefined) {
    await revokeFamily(item.familyId);
    return null;
  }
  if (item.expiresAt <= now()) return null;
  if (client.kind === 'operator' && client.orgId !== item.orgId) return null;
  // The client itself was read when it authenticated or was identified.
  const { grant, family } = await tokenStanding({
    orgId: item.orgId,
    clientId: item.clientId,
    storedClient: false,
    familyId: item.familyId,
  });
  if (!approvalStands(grant, item.approvalId) || !family || family.revokedAt) return null;

  const { issued, response } = newPair(
    {
      orgId: item.orgId,
      clientId: item.clientId,
      resource: item.resource,
      scope: item.scope,
      approvalId: item.approvalId,
    },
    client,
    item.familyId,
  );
  try {
    await oauth.rotateRefreshToken(refreshHash, new Date().toISOString(), issued);
  } catch (error) {
    if (!(error instanceof TransactionConflictError)) throw error;
    if (error.failed.has('refresh-token-consumed')) {
      await revokeFamily(item.familyId);
      return null;
    }
    // The family was revoked meanwhile.
    if (error.failed.has('token-family-revoked')) return null;
    throw error;
  }
  return response;
}
