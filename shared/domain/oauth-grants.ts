import { createHash, randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';
import { getOAuthClient, hashSecret } from './oauth-clients.ts';

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

const tokenItem = (token: string, grant: TokenGrant) => ({
  ...keys.oauthGrant('token', hashSecret(token)),
  type: 'oauthToken',
  orgId: grant.orgId,
  clientId: grant.clientId,
  resource: grant.resource,
  scope: grant.scope,
  createdAt: new Date().toISOString(),
  expiresAt: now() + ACCESS_TOKEN_TTL_SECONDS,
});

const tokenResponse = (token: string, grant: TokenGrant): AccessTokenResponse => ({
  access_token: token,
  token_type: 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
  scope: grant.scope,
});

/** Issues an access token (the response body of the token endpoint). */
export async function issueAccessToken(grant: TokenGrant): Promise<AccessTokenResponse> {
  const token = newAccessToken();
  await dynamo.send(new PutCommand({ TableName: tableName(), Item: tokenItem(token, grant) }));
  return tokenResponse(token, grant);
}

/** The grant of a presented token for `resource`; null when it is unknown, expired, for another resource, or its client is revoked. */
export async function verifyAccessToken(token: string, resource: string): Promise<VerifiedToken | null> {
  if (!/^mat_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.oauthGrant('token', hashSecret(token)) }),
  );
  // DynamoDB deletes expired items lazily, so expiry is checked here.
  if (!Item || (Item.expiresAt as number) <= now() || Item.resource !== resource) return null;
  const client = await getOAuthClient(Item.clientId as string);
  if (!client || client.revokedAt || client.orgId !== Item.orgId) return null;
  return {
    orgId: Item.orgId as number,
    clientId: Item.clientId as string,
    resource: Item.resource as string,
    scope: Item.scope as string,
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
  await dynamo.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.oauthGrant('code', hashSecret(code)),
        type: 'oauthCode',
        ...grant,
        expiresAt: now() + CODE_TTL_SECONDS,
      },
    }),
  );
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
  const codeKey = keys.oauthGrant('code', hashSecret(code));
  const { Item: item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: codeKey, ConsistentRead: true }),
  );
  if (!item || item.clientId !== presented.clientId) return null;
  if (typeof item.tokenHash === 'string') {
    await revokeToken(item.tokenHash);
    return null;
  }
  if ((item.expiresAt as number) <= now() || item.redirectUri !== presented.redirectUri) return null;
  if (codeChallengeOf(presented.codeVerifier) !== item.codeChallenge) return null;

  const grant: TokenGrant = {
    orgId: item.orgId as number,
    clientId: item.clientId as string,
    resource: item.resource as string,
    scope: item.scope as string,
  };
  const token = newAccessToken();
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            // The used code is kept as long as its token lives, so a replay within that time can revoke it.
            Update: {
              TableName: tableName(),
              Key: codeKey,
              UpdateExpression: 'SET tokenHash = :token, expiresAt = :until',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(tokenHash)',
              ExpressionAttributeValues: {
                ':token': hashSecret(token),
                ':until': now() + ACCESS_TOKEN_TTL_SECONDS,
              },
            },
          },
          { Put: { TableName: tableName(), Item: tokenItem(token, grant) } },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    // A concurrent redemption of the same code won: this one is the replay.
    const { Item: redeemed } = await dynamo.send(
      new GetCommand({ TableName: tableName(), Key: codeKey, ConsistentRead: true }),
    );
    if (typeof redeemed?.tokenHash === 'string') {
      await revokeToken(redeemed.tokenHash);
      return null;
    }
    // Otherwise the code expired and is gone, or the transaction failed for another reason.
    if (error.CancellationReasons?.some((reason) => reason.Code === 'ConditionalCheckFailed')) return null;
    throw error;
  }
  return tokenResponse(token, grant);
}

/** Deletes an access token by the hash of its value: it stops working at once. */
async function revokeToken(tokenHash: string): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: tableName(), Key: keys.oauthGrant('token', tokenHash) }));
}
