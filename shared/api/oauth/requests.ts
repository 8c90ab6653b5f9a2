import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { jsonResponse } from '#api/http/endpoint.ts';
import { PayloadTooLargeError } from '#api/http/errors.ts';
import { bodyText, headerOf } from '#api/http/request.ts';

/** Request parsing and responses of the OAuth endpoints, which speak RFC 6749, not `{message}` JSON. */

/** The largest token or consent request body read: far more than any OAuth request needs. */
export const MAX_PARAMETER_BODY_BYTES = 16 * 1024;

/** Whether a POST body is over MAX_PARAMETER_BODY_BYTES. */
export const parameterBodyTooLarge = (event: APIGatewayProxyEvent): boolean =>
  event.httpMethod !== 'GET' && Buffer.byteLength(bodyText(event)) > MAX_PARAMETER_BODY_BYTES;

/**
 * The parameters of a form-encoded (or JSON) body, or of the query string for
 * GET. A body over MAX_PARAMETER_BODY_BYTES is a PayloadTooLargeError (413);
 * the token endpoint checks `parameterBodyTooLarge` first to answer in its own shape.
 */
export function requestParameters(event: APIGatewayProxyEvent): Record<string, string> {
  if (event.httpMethod === 'GET') {
    return Object.fromEntries(
      Object.entries(event.queryStringParameters ?? {}).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
  }
  if (parameterBodyTooLarge(event)) {
    throw new PayloadTooLargeError(`Request body over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB`);
  }
  const raw = bodyText(event);
  if ((headerOf(event.headers, 'content-type') ?? '').includes('application/json')) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return Object.fromEntries(
          Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        );
      }
    } catch {
      return {};
    }
    return {};
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/**
 * How the client authenticated: `client_secret_basic` (RFC 6749 §2.3.1),
 * `client_secret_post`, `none` when it presented no usable credentials, or
 * `several` when it used more than one method, which §2.3 forbids: HTTP Basic
 * beside a `client_secret` in the body, or beside a body `client_id` that is
 * not the Basic one. Which client would then be meant is ambiguous, so the
 * request is refused rather than one of them picked.
 */
export type ClientAuthentication =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; clientSecret: string }
  | { method: 'none' }
  | { method: 'several' };

/** HTTP Basic credentials (`id:secret`, each form-urlencoded); null when they cannot be decoded. */
function basicCredentials(encoded: string): { clientId: string; clientSecret: string } | null {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return null;
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, separator).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(separator + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

/** The client's authentication from HTTP Basic or the body. */
export function clientAuthentication(
  event: APIGatewayProxyEvent,
  parameters: Record<string, string>,
): ClientAuthentication {
  const basic = /^Basic\s+(\S+)$/i.exec(headerOf(event.headers, 'authorization') ?? '')?.[1];
  if (basic !== undefined) {
    const credentials = basicCredentials(basic);
    const bodyNamesAnother =
      parameters.client_id !== undefined && parameters.client_id !== credentials?.clientId;
    if (parameters.client_secret !== undefined || bodyNamesAnother) return { method: 'several' };
    return credentials ? { method: 'client_secret_basic', ...credentials } : { method: 'none' };
  }
  if (parameters.client_id && parameters.client_secret) {
    return {
      method: 'client_secret_post',
      clientId: parameters.client_id,
      clientSecret: parameters.client_secret,
    };
  }
  return { method: 'none' };
}

/** An RFC 6749 error response. */
export function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return jsonResponse(
    status,
    { error, error_description: description },
    { 'cache-control': 'no-store', ...headers },
  );
}
