import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainTextToHtml } from '#domain/mail-compose.ts';
import { replyHtmlBytes } from '#schemas/refinements.ts';
import { replyEndpoint } from '#schemas/replies.ts';

/** The reply schema's size of a reply's HTML is the size of the HTML the domain stores and sends. */
describe('replyHtmlBytes', () => {
  it('is the byte length of the HTML a plain-text body becomes, and of an HTML body as given', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'é', '𐀀', '&', '<', '>', '"', "'", '\r', '\n', '\r\n'),
    });
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary' })), (body) => {
        expect(replyHtmlBytes(body, true)).toBe(Buffer.byteLength(plainTextToHtml(body)));
        expect(replyHtmlBytes(body, false)).toBe(Buffer.byteLength(body));
      }),
      { numRuns: 500 },
    );
  });
});

/** The reply body's checks that run whatever else is wrong (`when`) read only an object. */
describe('the reply body schema', () => {
  it('refuses any JSON value that is no object as a problem of the body, never by throwing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constant(null),
          fc
            .jsonValue()
            .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
        ),
        async (value) => {
          const result = await replyEndpoint.body['~standard'].validate(value);
          expect(result.issues?.map((issue) => issue.path ?? [])).toEqual([[]]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
