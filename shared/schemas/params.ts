import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { normalizedDomain } from './transforms.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 0.8 KiB of its own (and the zod types it uses) in 34 functions without them).

/**
 * Path and query parameters arrive as strings. These schemas accept only
 * decimal digits (no sign, exponent, fraction or blanks; leading zeros are
 * read as the number), convert
 * them, and carry the bounds and defaults into the OpenAPI document.
 */

const DIGITS = /^[0-9]{1,16}$/;

/** A positive integer id in a path: `0`, `-1`, `1.5`, `abc` and ids beyond 2^53−1 are 400. */
export const idParam = /* @__PURE__ */ (() =>
  z.pipe(
    z.pipe(z.string().check(z.regex(DIGITS, 'must be a positive integer')), z.transform(Number)),
    z
      .int()
      .check(
        z.gte(1, 'must be a positive integer'),
        z.lte(Number.MAX_SAFE_INTEGER, 'must be at most 2^53-1'),
      ),
  ))();

/** An optional integer query parameter with a default and bounds. */
export function integerQuery(options: { default: number; min: number; max?: number }) {
  let number = z.int().check(z.gte(options.min, `must be at least ${options.min}`));
  if (options.max !== undefined) number = number.check(z.lte(options.max, `must be at most ${options.max}`));
  const digits = z
    .string()
    .check(
      z.regex(DIGITS, options.min > 0 ? 'must be a positive integer' : 'must be a non-negative integer'),
    );
  return z
    .pipe(
      z.optional(z.pipe(z.pipe(digits, z.transform(Number)), number)),
      z.transform((value) => value ?? options.default),
    )
    .check(z.meta({ default: options.default }));
}

/** The maximum `take` of the list endpoints that the spec or the design leave bounded at 100. */
export const MAX_PAGE_SIZE = 100;
/** The default page size of campaign accounts, contacts and messages. */
export const DEFAULT_PAGE_SIZE = 25;

/**
 * What a usable domain needs, as the OpenAPI document's `pattern` says it: a dot between two labels
 * (the URL parser also takes an ideographic or full-width one, or a percent-encoded one). A
 * necessary condition, never stricter than `normalizeDomain` (test/unit/openapi-formats.test.ts);
 * the rest (two labels, not an IP address) is in words.
 */
export const DOMAIN_PATTERN = '[.。．｡]|%2[Ee]|%[Ee][3Ff]';

/** A domain, URL or host, normalized (shared/schemas/domain-names.ts); one without a usable domain is 400. */
export const domainString = /* @__PURE__ */ (() =>
  z
    .pipe(
      z.string().check(z.maxLength(2048, 'must be at most 2048 characters')),
      z.transform(normalizedDomain),
    )
    .check(
      z.meta({
        description:
          'A company’s domain, or a URL or host of it: at least two labels, not an IP address (`https://www.Acme.com/about` is `acme.com`).',
        pattern: DOMAIN_PATTERN,
      }),
    ))();

/** An ISO 8601 date-time with offset, in its canonical UTC form. */
/**
 * An email address as clients send it: trimmed, at most 320 characters (RFC 3696), well-formed.
 * `format` says so in a request's JSON Schema too, which describes the string before the pipe.
 */
export const emailAddress = /* @__PURE__ */ (() =>
  z
    .pipe(
      z.string().check(z.trim(), z.maxLength(320, 'must be at most 320 characters')),
      z.email('must be an email address'),
    )
    .check(z.meta({ format: 'email' })))();

export const dateTimeQuery = /* @__PURE__ */ (() =>
  z.pipe(
    z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-04-01T00:00:00Z' }),
    z.transform((value: string) => new Date(value).toISOString()),
  ))();
