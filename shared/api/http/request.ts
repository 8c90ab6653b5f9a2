import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * Reading what API Gateway hands a function. It passes header names as the
 * client sent them, and HTTP header names are case-insensitive, so a header is
 * looked up through these helpers, never by indexing `event.headers`.
 */

type EventHeaders = Record<string, string | undefined> | null | undefined;

/** The value of header `name`, whatever the case of its name in the request. */
export function headerOf(headers: EventHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** The headers that have a value, by lower-cased name. */
export function lowerCaseHeaders(headers: EventHeaders): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) lowered[name.toLowerCase()] = value;
  }
  return lowered;
}

/** The request body as text (decoded when API Gateway passed it in base64); empty when there is none. */
export const bodyText = (event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded'>): string =>
  event.body && event.isBase64Encoded
    ? Buffer.from(event.body, 'base64').toString('utf8')
    : (event.body ?? '');
