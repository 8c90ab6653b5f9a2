import { z } from 'zod';
import { normalizeDomain } from './domain-names.ts';

/**
 * Path and query parameters arrive as strings. These schemas accept only
 * decimal digits (no sign, exponent, fraction or blanks; leading zeros are
 * read as the number), convert
 * them, and carry the bounds and defaults into the OpenAPI document.
 */

const DIGITS = /^[0-9]{1,16}$/;

/** A positive integer id in a path: `0`, `-1`, `1.5`, `abc` and ids beyond 2^53−1 are 400. */
export const idParam = z
  .string()
  .regex(DIGITS, 'must be a positive integer')
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(1, 'must be a positive integer')
      .max(Number.MAX_SAFE_INTEGER, 'must be at most 2^53-1'),
  );

/** An optional integer query parameter with a default and bounds. */
export function integerQuery(options: { default: number; min: number; max?: number }) {
  let number = z.number().int().min(options.min, `must be at least ${options.min}`);
  if (options.max !== undefined) number = number.max(options.max, `must be at most ${options.max}`);
  return z
    .string()
    .regex(DIGITS, options.min > 0 ? 'must be a positive integer' : 'must be a non-negative integer')
    .transform(Number)
    .pipe(number)
    .optional()
    .transform((value) => value ?? options.default)
    .meta({ default: options.default });
}

/** The maximum `take` of the list endpoints that the spec or the design leave bounded at 100. */
export const MAX_PAGE_SIZE = 100;
/** The default page size of campaign accounts, contacts and messages. */
export const DEFAULT_PAGE_SIZE = 25;

/** A domain, URL or host, normalized (shared/schemas/domain-names.ts); one without a usable domain is 400. */
export const domainString = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .transform((value, context) => {
    const domain = normalizeDomain(value);
    if (domain === null) {
      context.addIssue({ code: 'custom', message: 'is not a usable domain' });
      return z.NEVER;
    }
    return domain;
  });

/** An ISO 8601 date-time with offset, in its canonical UTC form. */
/**
 * An email address as clients send it: trimmed, at most 320 characters (RFC 3696), well-formed.
 * `format` says so in a request's JSON Schema too, which describes the string before the pipe.
 */
export const emailAddress = z
  .string()
  .trim()
  .max(320, 'must be at most 320 characters')
  .pipe(z.email('must be an email address'))
  .meta({ format: 'email' });

export const dateTimeQuery = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-04-01T00:00:00Z' })
  .transform((value) => new Date(value).toISOString());
