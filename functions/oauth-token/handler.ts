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
import { authenticateClient } from '#domain/oauth-clients.ts';
import { isCodeVerifier, issueAccessToken, redeemAuthorizationCode } from '#domain/oauth-grants.ts';

/**
 * The token endpoint: `client_credentials`, and `authorization_code` with
 * PKCE (S256). Clients authenticate with `client_secret_basic` or
 * `client_secret_post`, one of them per request. The `resource` parameter
 * (RFC 8707), when given, must be this server's `/mcp`; a missing `scope`
 * means `mcp:read`.
 */
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
      ? null
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
  const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
  switch (parameters.grant_type) {
    case 'client_credentials':
      return jsonResponse(
        200,
        await issueAccessToken({
          orgId: client.orgId,
          clientId: client.clientId,
          resource: mcpResource(base),
          scope: MCP_SCOPE,
        }),
        noStore,
      );
    case 'authorization_code': {
      if (!parameters.code) return oauthError(400, 'invalid_request', 'code is required');
      if (parameters.code_verifier === undefined || !isCodeVerifier(parameters.code_verifier)) {
        return oauthError(
          400,
          'invalid_request',
          'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636)',
        );
      }
      const issued = await redeemAuthorizationCode(parameters.code, {
        clientId: client.clientId,
        redirectUri: parameters.redirect_uri,
        codeVerifier: parameters.code_verifier,
      });
      if (!issued)
        return oauthError(
          400,
          'invalid_grant',
          'The code is invalid, expired, used, or does not match the client, redirect URI or code verifier',
        );
      return jsonResponse(200, issued, noStore);
    }
    case undefined:
      return oauthError(400, 'invalid_request', 'grant_type is required');
    default:
      return oauthError(400, 'unsupported_grant_type', 'Supported: client_credentials, authorization_code');
  }
});
