import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { jsonResponse } from '#api/http/endpoint.ts';
import { JSON_TOO_DEEP_MESSAGE, nestsDeeperThan } from '#api/http/json-depth.ts';
import { bodyText } from '#api/http/request.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { RedirectUriRefused, RegistrationLimitReached } from '#domain/errors.ts';
import type { ClientRegistration, RegisteredClient } from '#domain/oauth-registration.ts';
import { clientRegistrationRequest } from '#schemas/oauth-clients.ts';
import { MAX_PARAMETER_BODY_BYTES, oauthError } from './requests.ts';

/**
 * The registration endpoint's protocol (RFC 7591): a JSON body of client
 * metadata in, 201 with the client's id, its secret when it has one, and the
 * registered metadata out. Errors are RFC 7591 §3.2.2 JSON: `invalid_redirect_uri`
 * for anything wrong with `redirect_uris`, `invalid_client_metadata` for the
 * rest (a body that is no JSON object or is over 16 KiB included), and 429
 * `rate_limited` with `Retry-After` past the hourly limit per address.
 */

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** The registration a request asks for, or the 400 refusing it. */
export function registrationRequestOf(
  event: APIGatewayProxyEvent,
): { registration: ClientRegistration } | { refusal: APIGatewayProxyResult } {
  const metadataError = (description: string) => ({
    refusal: oauthError(400, 'invalid_client_metadata', description),
  });
  const text = bodyText(event);
  if (Buffer.byteLength(text) > MAX_PARAMETER_BODY_BYTES) {
    return metadataError(`The request body is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB`);
  }
  if (nestsDeeperThan(text)) return metadataError(JSON_TOO_DEEP_MESSAGE);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return metadataError('The body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return metadataError('The body is not a JSON object of client metadata');
  }
  const parsed = clientRegistrationRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    return {
      refusal: oauthError(
        400,
        issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
        `${field}: ${issue.message}`,
      ),
    };
  }
  const metadata = parsed.data;
  return {
    registration: {
      redirectUris: metadata.redirect_uris,
      clientName: metadata.client_name ?? null,
      tokenEndpointAuthMethod: metadata.token_endpoint_auth_method,
      grantTypes: metadata.grant_types,
    },
  };
}

/** RFC 7591 §3.2.1: 201 with the client's credentials and its registered metadata. */
export function registrationResponse(client: RegisteredClient): APIGatewayProxyResult {
  return jsonResponse(
    201,
    {
      client_id: client.clientId,
      ...(client.clientSecret !== null && {
        client_secret: client.clientSecret,
        // The secret does not expire.
        client_secret_expires_at: 0,
      }),
      client_id_issued_at: client.issuedAt,
      redirect_uris: client.redirectUris,
      ...(client.clientName !== null && { client_name: client.clientName }),
      token_endpoint_auth_method: client.tokenEndpointAuthMethod,
      grant_types: client.grantTypes,
      response_types: ['code'],
      scope: MCP_SCOPE,
    },
    NO_STORE,
  );
}

/** The answer to a domain refusal of a registration; anything else is rethrown. */
export function registrationRefusal(error: unknown): APIGatewayProxyResult {
  if (error instanceof RedirectUriRefused) return oauthError(400, 'invalid_redirect_uri', error.message);
  if (error instanceof RegistrationLimitReached) {
    return oauthError(429, 'rate_limited', error.message, {
      'retry-after': String(error.retryAfterSeconds),
    });
  }
  throw error;
}
