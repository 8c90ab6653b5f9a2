import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { jsonResponse } from '../http/endpoint.ts';

/** Request parsing and responses of the OAuth endpoints, which speak RFC 6749, not `{message}` JSON. */

const MAX_PARAMETER_BODY = 16 * 1024;

/** The parameters of a form-encoded (or JSON) body, or of the query string for GET. */
export function requestParameters(event: APIGatewayProxyEvent): Record<string, string> {
  if (event.httpMethod === 'GET') {
    return Object.fromEntries(
      Object.entries(event.queryStringParameters ?? {}).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
  }
  const raw =
    event.body && event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : (event.body ?? '');
  if (raw.length > MAX_PARAMETER_BODY) return {};
  const contentType =
    Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (contentType.includes('application/json')) {
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

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1) or the body (`client_secret_post`). */
export function clientCredentials(
  event: APIGatewayProxyEvent,
  parameters: Record<string, string>,
): { clientId: string; clientSecret: string } | null {
  const authorization = Object.entries(event.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'authorization',
  )?.[1];
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
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
  if (parameters.client_id && parameters.client_secret) {
    return { clientId: parameters.client_id, clientSecret: parameters.client_secret };
  }
  return null;
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
