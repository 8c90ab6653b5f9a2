import { publicBaseUrl } from '#api/http/base-url.ts';
import { defineHttpHandler, jsonResponse } from '#api/http/endpoint.ts';
import { mcpResource } from '#api/oauth/metadata.ts';
import {
  clientAuthentication,
  MAX_PARAMETER_BODY_BYTES,
  oauthError,
  parameterBodyTooLarge,
  requestParameters,
} from '#api/oauth/requests.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { authenticateClient, type GrantType, identifyPublicClient } from '#domain/oauth-clients.ts';
import {
  isCodeVerifier,
  issueClientCredentialsToken,
  redeemAuthorizationCode,
  refreshAccessToken,
} from '#domain/oauth-grants.ts';

/**
 * The token endpoint: `authorization_code` with PKCE (S256), `refresh_token`
 * (rotated on every use), and `client_credentials` for operator clients only.
 * Confidential clients authenticate with `client_secret_basic` or
 * `client_secret_post`, one of them per request; public clients (a
 * registration with `none`, or a metadata-document client) send their
 * `client_id` alone, and may use the code and refresh grants only. The
 * `resource` parameter (RFC 8707), when given, must be this server's `/mcp`;
 * a missing `scope` means `mcp:read`.
 */

const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials'];
const isGrantType = (value: string): value is GrantType => (GRANT_TYPES as readonly string[]).includes(value);

export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  if (parameterBodyTooLarge(event)) {
    return oauthError(
      413,
      'invalid_request',
      `The request body is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB`,
    );
  }
  const parameters = requestParameters(event);
  const authentication = clientAuthentication(event, parameters);
  if (authentication.method === 'several') {
    return oauthError(
      400,
      'invalid_request',
      'Authenticate the client one way: HTTP Basic or client_id and client_secret in the body, not both',
    );
  }
  const client =
    authentication.method === 'none'
      ? parameters.client_id === undefined
        ? null
        : await identifyPublicClient(parameters.client_id)
      : await authenticateClient(authentication.clientId, authentication.clientSecret);
  if (!client) {
    return oauthError(401, 'invalid_client', 'Client authentication failed', {
      'www-authenticate': 'Basic realm="oauth"',
    });
  }
  if (parameters.resource !== undefined && parameters.resource !== mcpResource(base)) {
    return oauthError(400, 'invalid_target', `The only resource is ${mcpResource(base)}`);
  }
  const scope = parameters.scope ?? MCP_SCOPE;
  if (scope.split(' ').some((requested) => requested !== MCP_SCOPE)) {
    return oauthError(400, 'invalid_scope', `The only scope is ${MCP_SCOPE}`);
  }
  const grantType = parameters.grant_type;
  if (grantType === undefined) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (!isGrantType(grantType)) {
    return oauthError(400, 'unsupported_grant_type', `Supported: ${GRANT_TYPES.join(', ')}`);
  }
  if (!client.grantTypes.includes(grantType)) {
    return oauthError(400, 'unauthorized_client', `This client may not use the ${grantType} grant`);
  }
  const issued = (response: object) =>
    jsonResponse(200, response, { 'cache-control': 'no-store', pragma: 'no-cache' });
  switch (grantType) {
    case 'client_credentials': {
      const token = await issueClientCredentialsToken(client, {
        resource: mcpResource(base),
        scope: MCP_SCOPE,
      });
      return token
        ? issued(token)
        : oauthError(400, 'unauthorized_client', 'The organization revoked this client’s access');
    }
    case 'authorization_code': {
      if (!parameters.code) return oauthError(400, 'invalid_request', 'code is required');
      if (parameters.code_verifier === undefined || !isCodeVerifier(parameters.code_verifier)) {
        return oauthError(
          400,
          'invalid_request',
          'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636)',
        );
      }
      const token = await redeemAuthorizationCode(parameters.code, {
        client,
        redirectUri: parameters.redirect_uri,
        codeVerifier: parameters.code_verifier,
      });
      return token
        ? issued(token)
        : oauthError(
            400,
            'invalid_grant',
            'The code is invalid, expired, used, or does not match the client, redirect URI or code verifier, or the organization revoked the client’s access',
          );
    }
    case 'refresh_token': {
      if (!parameters.refresh_token) return oauthError(400, 'invalid_request', 'refresh_token is required');
      const token = await refreshAccessToken(parameters.refresh_token, { client });
      return token
        ? issued(token)
        : oauthError(
            400,
            'invalid_grant',
            'The refresh token is invalid, expired, used before, or another client’s, or the organization revoked the client’s access',
          );
    }
  }
});
