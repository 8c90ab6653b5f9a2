import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { dynamo } from '../db/client.ts';
import { keys } from '../db/keys.ts';
import { getOAuthClient, hashSecret } from './clients.ts';

/**
 * Access tokens and authorization codes: opaque random values, stored only as
 * hashes, expiring by TTL. A token is bound to one organization, one client
 * and the `/mcp` resource; a code is single-use and bound to its client,
 * redirect URI and PKCE challenge.
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

const now = () => Math.floor(Date.now() / 1000);

/** Issues an access token (the response body of the token endpoint). */
export async function issueAccessToken(grant: TokenGrant) {
  const token = `mat_${randomBytes(32).toString('base64url')}`;
  await dynamo.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.oauthGrant('token', hashSecret(token)),
        type: 'oauthToken',
        ...grant,
        createdAt: new Date().toISOString(),
        expiresAt: now() + ACCESS_TOKEN_TTL_SECONDS,
      },
    }),
  );
  return {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    scope: grant.scope,
  };
}

/** The grant of a presented token for `resource`; null when it is unknown, expired, for another resource, or its client is revoked. */
export async function verifyAccessToken(token: string, resource: string): Promise<TokenGrant | null> {
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

/**
 * Redeems a code once (it is deleted whatever the outcome): returns its grant
 * if it was issued to this client for this redirect URI and the verifier
 * matches its challenge; null otherwise.
 */
export async function redeemAuthorizationCode(
  code: string,
  presented: { clientId: string; redirectUri: string | undefined; codeVerifier: string | undefined },
): Promise<TokenGrant | null> {
  if (!/^mac_[A-Za-z0-9_-]{43}$/.test(code)) return null;
  let item: Record<string, unknown> | undefined;
  try {
    ({ Attributes: item } = await dynamo.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.oauthGrant('code', hashSecret(code)),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    ));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
  if (!item || (item.expiresAt as number) <= now()) return null;
  if (item.clientId !== presented.clientId || item.redirectUri !== presented.redirectUri) return null;
  if (!presented.codeVerifier || codeChallengeOf(presented.codeVerifier) !== item.codeChallenge) return null;
  return {
    orgId: item.orgId as number,
    clientId: item.clientId as string,
    resource: item.resource as string,
    scope: item.scope as string,
  };
}
