import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { publicBaseUrl } from '#api/http/base-url.ts';
import { jsonResponse } from '#api/http/endpoint.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import {
  GRANT_TYPES,
  type TokenOutcome,
  type TokenRefusal,
  type TokenRequest,
} from '#use-cases/issue-oauth-token.ts';
import { mcpResource } from './metadata.ts';
import {
  clientAuthentication,
  MAX_PARAMETER_BODY_BYTES,
  oauthError,
  parameterBodyTooLarge,
  requestParameters,
} from './requests.ts';

/**
 * The token endpoint's HTTP side (RFC 6749): the request read from the form
 * body and HTTP Basic, and the use case's outcome as the RFC's answers.
 */

/** The token request of an HTTP request, or the answer when it cannot be read as one. */
export function tokenRequestOf(
  event: APIGatewayProxyEvent,
): TokenRequest | { refusal: APIGatewayProxyResult } {
  if (parameterBodyTooLarge(event)) {
    return {
      refusal: oauthError(
        413,
        'invalid_request',
        `The request body is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB`,
      ),
    };
  }
  const parameters = requestParameters(event);
  const authentication = clientAuthentication(event, parameters);
  if (authentication.method === 'several') {
    return {
      refusal: oauthError(
        400,
        'invalid_request',
        'Authenticate the client one way: HTTP Basic or client_id and client_secret in the body, not both',
      ),
    };
  }
  return {
    client:
      authentication.method === 'none'
        ? { clientId: parameters.client_id }
        : { clientId: authentication.clientId, clientSecret: authentication.clientSecret },
    mcpResource: mcpResource(publicBaseUrl(event)),
    resource: parameters.resource,
    scope: parameters.scope,
    grantType: parameters.grant_type,
    code: parameters.code,
    codeVerifier: parameters.code_verifier,
    redirectUri: parameters.redirect_uri,
    refreshToken: parameters.refresh_token,
  };
}

/** Each refusal as RFC 6749 §5.2 answers it. */
const REFUSALS: Record<TokenRefusal, (request: TokenRequest) => [number, string, string]> = {
  'client-unauthenticated': () => [401, 'invalid_client', 'Client authentication failed'],
  'resource-unknown': (request) => [400, 'invalid_target', `The only resource is ${request.mcpResource}`],
  'scope-unknown': () => [400, 'invalid_scope', `The only scope is ${MCP_SCOPE}`],
  'grant-type-missing': () => [400, 'invalid_request', 'grant_type is required'],
  'grant-type-unsupported': () => [400, 'unsupported_grant_type', `Supported: ${GRANT_TYPES.join(', ')}`],
  'grant-type-not-allowed': (request) => [
    400,
    'unauthorized_client',
    `This client may not use the ${request.grantType} grant`,
  ],
  'access-revoked': () => [400, 'unauthorized_client', 'The organization revoked this client’s access'],
  'code-missing': () => [400, 'invalid_request', 'code is required'],
  'code-verifier-invalid': () => [
    400,
    'invalid_request',
    'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636)',
  ],
  'code-refused': () => [
    400,
    'invalid_grant',
    'The code is invalid, expired, used, or does not match the client, redirect URI or code verifier, or the organization revoked the client’s access',
  ],
  'refresh-token-missing': () => [400, 'invalid_request', 'refresh_token is required'],
  'refresh-token-refused': () => [
    400,
    'invalid_grant',
    'The refresh token is invalid, expired, used before, or another client’s, or the organization revoked the client’s access',
  ],
};

/** The answer to a token request: the token, never cached, or the refusal. */
export function tokenResponse(request: TokenRequest, outcome: TokenOutcome): APIGatewayProxyResult {
  if ('issued' in outcome) {
    return jsonResponse(200, outcome.issued, { 'cache-control': 'no-store', pragma: 'no-cache' });
  }
  const [status, error, description] = REFUSALS[outcome.refused](request);
  return oauthError(
    status,
    error,
    description,
    status === 401 ? { 'www-authenticate': 'Basic realm="oauth"' } : {},
  );
}
