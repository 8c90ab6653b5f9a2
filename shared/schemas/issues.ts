import type { z } from 'zod';

/**
 * How a value that failed its zod schema is described: the first issue, naming
 * the field at fault the way the request carried it (`contacts[3].email`).
 * The HTTP edge answers invalid requests with it, and the raw push reports
 * each invalid contact with it.
 */

/** Where a validated value came from: how a field of it, and the whole of it, are named in messages. */
export interface InputLocation {
  field: string;
  whole: string;
}

export const PATH_INPUT: InputLocation = { field: 'path parameter', whole: 'path parameters' };
export const QUERY_INPUT: InputLocation = { field: 'query parameter', whole: 'query string' };
export const BODY_INPUT: InputLocation = { field: 'body field', whole: 'request body' };

/** Formats the first zod issue as a message naming the offending field. */
export function describeIssue(location: InputLocation, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid ${location.whole}`;
  const name = issue.path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
  return name
    ? `Invalid ${location.field} '${name}': ${issue.message}`
    : `Invalid ${location.whole}: ${issue.message}`;
}
