import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queueMessageBody, queueMessageBytes } from '#platform/queue-client.ts';

/**
 * What every producer sends a queue (shared/platform/queue-client.ts): the
 * JSON text with only what a queue refuses escaped, the same JSON value,
 * measured as SQS measures it.
 */

/** What SQS refuses in a message body, by code point (its documentation's ranges). */
const REFUSED_BY_SQS = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
/** What the local emulator (fauxqs) refuses: the same ranges, read one UTF-16 unit at a time. */
const REFUSED_BY_EMULATOR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd]/;

/** Any code point, lone surrogates included (JSON.stringify writes those as escapes). */
const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));

describe('a queue message body', () => {
  it('is the same JSON value, in characters both queues take, at most three times as long', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(codePoint, { maxLength: 40 }).map((points) => points.join('')),
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.jsonValue().map((value) => JSON.stringify(value)),
        ),
        (text) => {
          const json = JSON.stringify({ text, list: [text, { [text]: text }] });
          const body = queueMessageBody(json);
          expect(JSON.parse(body)).toEqual(JSON.parse(json));
          expect(REFUSED_BY_SQS.test(body)).toBe(false);
          expect(REFUSED_BY_EMULATOR.test(body)).toBe(false);
          expect(Buffer.byteLength(body)).toBeLessThanOrEqual(3 * Buffer.byteLength(json));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves what SQS takes as it is: DEL, C1 controls, U+FFFD, line separators', () => {
    const json = JSON.stringify({ text: '\u007f\u0080\u009f\u2028\u2029\ufffd\ue000\ud7ff é €' });
    expect(queueMessageBody(json)).toBe(json);
    expect(queueMessageBody('"\u007f"'.repeat(3))).toBe('"\u007f""\u007f""\u007f"');
  });

  it('escapes U+FFFE, U+FFFF, lone surrogates and characters beyond the BMP', () => {
    expect(queueMessageBody('["\ufffe\uffff"]')).toBe('["\\ufffe\\uffff"]');
    expect(queueMessageBody('["\ud800x\udfff"]')).toBe('["\\ud800x\\udfff"]');
    expect(queueMessageBody('["😀"]')).toBe('["\\ud83d\\ude00"]');
  });

  it('is measured as SQS measures a message: body and attributes, in UTF-8 bytes', () => {
    expect(queueMessageBytes('\u007f€')).toBe(1 + 3);
    expect(
      queueMessageBytes('{}', {
        orgId: { DataType: 'String', StringValue: '12' },
        provider: { DataType: 'String', StringValue: 'lemlist' },
      }),
    ).toBe(2 + 'orgId'.length + 'String'.length + 2 + 'provider'.length + 'String'.length + 7);
  });
});
