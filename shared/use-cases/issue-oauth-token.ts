import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { authenticateClient, type GrantType, identifyPublicClient } from '#domain/oauth-clients.ts';
import {
  type AccessTokenResponse,
  isCodeVerifier,
  issueClientCredentialsToken,
  redeemAuthorizationCode,
  refreshAccessToken,
} from '#domain/oauth-grants.ts';

/**
 * The token endpoint's operation: `authorization_code` with PKCE (S256),
 * `refresh_token` (rotated on every use), and `client_credentials` for
 * operator clients only. Confidential clients authenticate with their
 * secret; public clients (a registration with `none`, or a metadata-document
 * client) send their `client_id` alone, and may use the code and refresh
 * grants only. The resource, when given, must be this server's `/mcp`; a
 * missing scope means `mcp:read`. The checks run in this order, so a client
 * that fails to authenticate learns nothing of the rest of its request.
 */

export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
];
const isGrantType = (value: string): value is GrantType => (GRANT_TYPES as readonly string[]).includes(value);

/** A token request as the endpoint read it (RFC 6749 §4.1.3, §4.4.2, §6). */
export interface TokenRequest {
  /** A confidential client's id and secret, or what a public client sent of its id. */
  client: { clientId: string; clientSecret: string } | { clientId?: string };
  /** This server's MCP resource: the only one a token is for. */
  mcpResource: string;
  resource?: string;
  scope?: string;
  grantType?: string;
  code?: string;
  codeVerifier?: string;
  redirectUri?: string;
  refreshToken?: string;
}

/** Why a token request is refused; the endpoint words each as RFC 6749 does. */
export type TokenRefusal =
  | 'client-unauthenticated'
  | 'resource-unknown'
  | 'scope-unknown'
  | 'grant-type-missing'
  | 'grant-type-unsupported'
  | 'grant-type-not-allowed'
  | 'access-revoked'
  | 'code-missing'
  | 'code-verifier-invalid'
  | 'code-refused'
  | 'refresh-token-missing'
  | 'refresh-token-refused';

export type TokenOutcome = { issued: AccessTokenResponse } | { refused: TokenRefusal };

const refused = (reason: TokenRefusal): TokenOutcome => ({ refused: reason });
const issuedOr = (token: AccessTokenResponse | null, reason: TokenRefusal): TokenOutcome =>
  token ? { issued: token } : refused(reason);

export async function issueOAuthToken(request: TokenRequest): Promise<TokenOutcome> {
  const presented = request.client;
  const client =
    'clientSecret' in presented
      ? await authenticateClient(presented.clientId, presented.clientSecret)
      : presented.clientId === undefined
        ? null
        : await identifyPublicClient(presented.clientId);
  if (!client) return refused('client-unauthenticated');
  if (request.resource !== undefined && request.resource !== request.mcpResource) {
    return refused('resource-unknown');
  }
  const scope = request.scope ?? MCP_SCOPE;
  if (scope.split(' ').some((requested) => requested !== MCP_SCOPE)) return refused('scope-unknown');
  const { grantType } = request;
  if (grantType === undefined) return refused('grant-type-missing');
  if (!isGrantType(grantType)) return refused('grant-type-unsupported');
  if (!client.grantTypes.includes(grantType)) return refused('grant-type-not-allowed');
  switch (grantType) {
    case 'client_credentials':
      return issuedOr(
        await issueClientCredentialsToken(client, { resource: request.mcpResource, scope: MCP_SCOPE }),
        'access-revoked',
      );
    case 'authorization_code': {
      if (!request.code) return refused('code-missing');
      if (request.codeVerifier === undefined || !isCodeVerifier(request.codeVerifier)) {
        return refused('code-verifier-invalid');
      }
      return issuedOr(
        await redeemAuthorizationCode(request.code, {
          client,
          redirectUri: request.redirectUri,
          codeVerifier: request.codeVerifier,
        }),
        'code-refused',
      );
    }
    case 'refresh_token':
      if (!request.refreshToken) return refused('refresh-token-missing');
      return issuedOr(await refreshAccessToken(request.refreshToken, { client }), 'refresh-token-refused');
  }
}
