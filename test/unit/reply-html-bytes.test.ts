import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainTextToHtml } from '#domain/mail-compose.ts';
import { replyHtmlBytes } from '#schemas/refinements.ts';

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
