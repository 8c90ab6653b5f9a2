import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { MAX_REPLY_HTML_BYTES } from '#definitions/reply-limits.ts';
import type { EndpointSchemas } from './endpoint.ts';
import { emailAddress, idParam } from './params.ts';
import { replyHtmlBytes } from './refinements.ts';
import { addTransformIssue } from './transform-issue.ts';

/** At most this many recipients across to, cc and bcc. */
export const MAX_RECIPIENTS = 50;
/** The largest reply body, in characters. */
export const MAX_REPLY_BODY = 100_000;

/**
 * What a list of addresses looks like, as the OpenAPI document's `pattern` says it: addresses (no
 * blanks, commas or second `@` in one) separated by commas. Never stricter than the check itself
 * (test/unit/openapi-formats.test.ts), which also wants each address well-formed.
 */
export const ADDRESS_LIST_PATTERN = '^[\\s,]*[^\\s,@]+@[^\\s,@]+(?:\\s*,[\\s,]*[^\\s,@]+@[^\\s,@]+)*[\\s,]*$';

/** A comma-separated list of email addresses, as an array; any invalid one is 400. */
const addressList = z
  .pipe(
    z.string().check(z.maxLength(10_000)),
    z.transform((value: string, context) => {
      const addresses = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      if (addresses.length === 0) {
        addTransformIssue(context, { code: 'custom', message: 'must name at least one email address' });
        return z.NEVER;
      }
      for (const candidate of addresses) {
        if (!emailAddress.safeParse(candidate).success) {
          addTransformIssue(context, {
            code: 'custom',
            message: `${JSON.stringify(candidate)} is not an email address`,
          });
          return z.NEVER;
        }
      }
      return addresses;
    }),
  )
  .check(
    z.meta({
      description: `Email addresses, comma-separated: each well-formed, at most ${MAX_RECIPIENTS} recipients in all.`,
      pattern: ADDRESS_LIST_PATTERN,
    }),
  );

/** Whether the request's body is a JSON object, whatever its fields: the reply's own checks read it then. */
const bodyIsObject = (payload: { value: unknown }): boolean =>
  typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value);

/** POST /public/v1/assignments/{id}/reply */
export const replyEndpoint = {
  path: z.object({ id: idParam.check(z.meta({ description: 'The assignment id.' })) }),
  body: z
    .object({
      body: z
        .string()
        .check(
          z.minLength(1, 'must not be empty'),
          z.maxLength(MAX_REPLY_BODY, `must be at most ${MAX_REPLY_BODY} characters`),
        ),
      plain_text: z._default(z.boolean(), false),
      to: z.optional(addressList),
      cc: z.optional(addressList),
      bcc: z.optional(addressList),
    })
    // Both checks run whatever else is wrong (`when`), so a 400 names their problems with the
    // others; each reads only what parsed, and only of an object (a body of `null` is no reply at all).
    .check(
      z.refine(
        (body) => {
          const count = (list: unknown, absent: number) => (Array.isArray(list) ? list.length : absent);
          return count(body.to, 1) + count(body.cc, 0) + count(body.bcc, 0) <= MAX_RECIPIENTS;
        },
        { message: `at most ${MAX_RECIPIENTS} recipients in all`, path: ['to'], when: bodyIsObject },
      ),
      z.refine(
        (body) =>
          typeof body.body !== 'string' ||
          body.body.length > MAX_REPLY_BODY ||
          replyHtmlBytes(body.body, body.plain_text === true) <= MAX_REPLY_HTML_BYTES,
        {
          message: `must be at most ${MAX_REPLY_HTML_BYTES} bytes as HTML (plain text grows when escaped)`,
          path: ['body'],
          when: bodyIsObject,
        },
      ),
    ),
  response: z.object({ success: z.boolean() }),
} satisfies EndpointSchemas;
