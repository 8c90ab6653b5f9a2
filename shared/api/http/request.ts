import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * Reading what API Gateway hands a function. It passes header names as the
 * client sent them, and HTTP header names are case-insensitive, so a header is
 * looked up through these helpers, never by indexing `event.headers`.
 */

type EventHeaders = Record<string, string | undefined> | null | undefined;
/** A request's headers, or an answer's (whose values may be numbers or booleans). */
type AnyHeaders = Record<string, string | number | boolean | undefined> | null | undefined;

/** The value of header `name`, whatever the case of its name in the request (or answer). */
export function headerOf(headers: AnyHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted) return value === undefined ? undefined : String(value);
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
