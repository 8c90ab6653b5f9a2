import fc from 'fast-check';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import {
  composeMime,
  htmlToText,
  messageIdOf,
  type OutgoingMail,
  plainTextToHtml,
} from '#domain/mail-compose.ts';
import { backoffSeconds } from '#platform/retry.ts';

describe('plainTextToHtml', () => {
  it.each([
    ['Hello', 'Hello'],
    ['a < b & c > d', 'a &lt; b &amp; c &gt; d'],
    ['"quoted" and \'single\'', '&quot;quoted&quot; and &#39;single&#39;'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['line one\nline two', 'line one<br>line two'],
    ['windows\r\nbreaks', 'windows<br>breaks'],
    ['old mac\rbreak', 'old mac<br>break'],
    ['two\n\nbreaks', 'two<br><br>breaks'],
    ['mixed\r\n\nlines\n', 'mixed<br><br>lines<br>'],
    ['&amp; already', '&amp;amp; already'],
    ['ünïcödé ✓', 'ünïcödé ✓'],
  ])('turns %j into %j', (text, html) => {
    expect(plainTextToHtml(text)).toBe(html);
  });
});

describe('htmlToText', () => {
  it('gives a readable text alternative', () => {
    expect(htmlToText('<p>Hi <b>Ann</b>,</p><p>Thanks &amp; regards<br>Bob</p>')).toBe(
      'Hi Ann,\nThanks & regards\nBob',
    );
  });
});

describe('composeMime', () => {
  it('builds a multipart message with HTML, a text alternative and threading headers, Bcc out of the headers', async () => {
    const raw = await composeMime({
      messageId: messageIdOf(1, 42, 'mail.example'),
      from: 'rep@seller.com',
      to: ['ann@acme.com'],
      cc: ['boss@acme.com'],
      bcc: ['archive@seller.com'],
      subject: 'Re: Hello',
      html: 'Sure<br>Thursday works',
      inReplyTo: messageIdOf(1, 41, 'mail.example'),
    });
    const parsed = await PostalMime.parse(raw);
    expect(parsed.messageId).toBe('<message-42.org-1@mail.example>');
    expect(parsed.inReplyTo).toBe('<message-41.org-1@mail.example>');
    expect(parsed.references).toBe('<message-41.org-1@mail.example>');
    expect(parsed.html?.trim()).toBe('Sure<br>Thursday works');
    expect(parsed.text?.trim()).toBe('Sure\nThursday works');
    expect(parsed.cc?.map((entry) => entry.address)).toEqual(['boss@acme.com']);
    expect(raw.toString()).not.toMatch(/archive@seller\.com/);
  });
});

/** A reply as deliverReply composes it, with `overrides`. */
const mailOf = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  messageId: messageIdOf(1, 42, 'mail.example'),
  from: 'rep@seller.com',
  to: ['ann@acme.com'],
  cc: [],
  bcc: [],
  subject: 'Re: Hello',
  html: 'Hello',
  inReplyTo: null,
  ...overrides,
});

/** The message's header block and its body, split at the first empty line. */
function sections(raw: Buffer): { header: string; body: string } {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  return { header: text.slice(0, end), body: text.slice(end + 4) };
}

/** The names of the message's header fields, in order (continuation lines start with white space). */
const fieldNames = (raw: Buffer): string[] =>
  sections(raw)
    .header.split('\r\n')
    .filter((line) => !/^[ \t]/.test(line))
    .map((line) => line.slice(0, line.indexOf(':')));

/** The Content-Transfer-Encoding of the text/plain or text/html part. */
function encodingOf(raw: Buffer, subtype: 'plain' | 'html'): string {
  const match = new RegExp(
    `\r\nContent-Type: text/${subtype}; charset=utf-8\r\nContent-Transfer-Encoding: ([a-z0-9-]+)\r\n\r\n`,
  ).exec(raw.toString('utf8'));
  return match![1]!;
}

/**
 * What postal-mime gives for a text part: a base64 part decodes to its exact
 * text; a quoted-printable one to its lines joined by LF (CRLF and LF are both
 * a line break), plus the line break of the boundary delimiter, which
 * postal-mime keeps (RFC 2046 §5.1.1 gives it to the delimiter).
 */
const asParsed = (text: string, encoding: string): string =>
  encoding === 'base64' ? text : `${text.replace(/\r\n/g, '\n')}\n`;

/** The structure every composed message has, whatever its content. */
function expectWellFormed(raw: Buffer) {
  const text = raw.toString('utf8');
  // CRLF line ends only: no bare CR or LF anywhere.
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  expect(text.endsWith('\r\n')).toBe(true);
  const { header, body } = sections(raw);
  // Headers are ASCII (non-ASCII text goes as encoded words), each line at most 78 characters.
  expect(header).toMatch(/^[\x20-\x7e\r\n]*$/);
  for (const line of header.split('\r\n')) expect(line.length, line).toBeLessThanOrEqual(78);
  // Body lines (part headers, encoded content, boundaries) at most 76 characters, so never over 998.
  for (const line of body.split('\r\n')) expect(line.length, line).toBeLessThanOrEqual(76);
  // 7-bit: quoted-printable leaves only printable ASCII, space and tab literal.
  expect(body).toMatch(/^[\t\x20-\x7e\r\n]*$/);
}

describe('composeMime (RFC 5322, 2045-2047)', () => {
  it('writes the headers in order, a random boundary and a UTF-8 text and HTML part', async () => {
    const mail = mailOf({ cc: ['c@acme.com'], inReplyTo: '<message-41.org-1@mail.example>' });
    const [raw, again] = [await composeMime(mail), await composeMime(mail)];
    expect(fieldNames(raw)).toEqual([
      'Date',
      'Message-ID',
      'From',
      'To',
      'Cc',
      'Subject',
      'In-Reply-To',
      'References',
      'MIME-Version',
      'Content-Type',
    ]);
    const boundaryOf = (message: Buffer) =>
      /\r\nContent-Type: multipart\/alternative;\r\n boundary="([^"]+)"\r\n/.exec(message.toString())![1]!;
    expect(boundaryOf(raw)).toMatch(/^=_[0-9a-f]{32}$/);
    expect(boundaryOf(raw)).not.toBe(boundaryOf(again));
    expect(raw.toString()).toMatch(/\r\nMIME-Version: 1\.0\r\n/);
    expect(encodingOf(raw, 'plain')).toMatch(/^(quoted-printable|base64)$/);
    expect(encodingOf(raw, 'html')).toMatch(/^(quoted-printable|base64)$/);
    expectWellFormed(raw);
  });

  it('round-trips a non-ASCII subject and display names as encoded words folded within 78 characters', async () => {
    const subject = `Re: Größenänderung des Angebots – 日本語のテキスト, ${'encore une fois '.repeat(4)}✓ 🎉`;
    const raw = await composeMime(
      mailOf({
        from: 'Zoë Ünder-Straße <rep@seller.com>',
        to: ['José Álvarez <jose@acme.com>', 'plain@acme.com', '"Doe, John" <john@acme.com>'],
        cc: ['Ωmega 团队 <omega@acme.com>', 'Ann Smith <ann.smith@acme.com>'],
        subject,
      }),
    );
    expectWellFormed(raw);
    expect(sections(raw).header).toMatch(/^Subject: =\?UTF-8\?[BQ]\?[^\r]*\?=\r\n =\?UTF-8\?[BQ]\?/m);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe(subject);
    expect(parsed.from).toEqual({ name: 'Zoë Ünder-Straße', address: 'rep@seller.com' });
    expect(parsed.to).toEqual([
      { name: 'José Álvarez', address: 'jose@acme.com' },
      { name: '', address: 'plain@acme.com' },
      { name: 'Doe, John', address: 'john@acme.com' },
    ]);
    expect(parsed.cc).toEqual([
      { name: 'Ωmega 团队', address: 'omega@acme.com' },
      { name: 'Ann Smith', address: 'ann.smith@acme.com' },
    ]);
  });

  it.each([
    ['a plain ASCII subject', 'Re: Hello there'],
    ['a long ASCII subject, folded at spaces', `Re: ${'quarterly planning meeting '.repeat(8).trim()}`],
    ['a word too long for one line', `Re: ${'x'.repeat(150)} end`],
    ['text that looks like an encoded word', 'Re: =?utf-8?q?not_encoded?= really'],
    ['several spaces in a row', 'Re:   spaced    out'],
    ['characters Q encoding must escape', 'Re: a=b? c_d "quoted" <angle> (paren)'],
  ])('round-trips %s exactly', async (_case, subject) => {
    const raw = await composeMime(mailOf({ subject }));
    expectWellFormed(raw);
    expect((await PostalMime.parse(raw)).subject).toBe(subject);
  });

  it('round-trips a long HTML body with long lines and non-ASCII text exactly, in quoted-printable', async () => {
    const html = [
      `<p>${'Greetings from Köln, see you on Thursday at the café – usual place? '.repeat(60)}</p>`,
      `<p>${'a'.repeat(3000)}</p>`,
      `<div style="color: red">x = y &amp; z\tand trailing spaces   </div>`,
      '<p>.a line starting with a dot</p>',
      `<p>${'=?utf-8?q?x?= '.repeat(20)}</p>`,
      'last line, no line break',
    ].join('\n');
    const raw = await composeMime(mailOf({ html }));
    expectWellFormed(raw);
    expect(encodingOf(raw, 'html')).toBe('quoted-printable');
    expect(encodingOf(raw, 'plain')).toBe('quoted-printable');
    const parsed = await PostalMime.parse(raw);
    expect(parsed.html).toBe(asParsed(html, 'quoted-printable'));
    expect(parsed.text).toBe(asParsed(htmlToText(html), 'quoted-printable'));
  });

  it('round-trips a mostly non-Latin HTML body exactly, in base64', async () => {
    const html = `<p>${'日本語のテキストです。'.repeat(400)}</p>\n<p>Ünïcödé ✓ 🎉 and an emoji at the end 🎉</p>\n`;
    const raw = await composeMime(mailOf({ html }));
    expectWellFormed(raw);
    expect(encodingOf(raw, 'html')).toBe('base64');
    expect(encodingOf(raw, 'plain')).toBe('base64');
    const parsed = await PostalMime.parse(raw);
    expect(parsed.html).toBe(html);
    expect(parsed.text).toBe(htmlToText(html));
  });

  it('writes CRLF line ends only, whatever line breaks the body and the subject carry', async () => {
    const raw = await composeMime(
      mailOf({
        subject: 'one\rtwo\nthree\r\nfour',
        html: 'one\rtwo\nthree\r\nfour\n\r\n\r',
      }),
    );
    expectWellFormed(raw);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe('one two three four');
    // CRLF and LF are line breaks; a lone CR is content, carried as =0D.
    expect(parsed.html).toBe(asParsed('one\rtwo\nthree\nfour\n\n\r', encodingOf(raw, 'html')));
  });

  it.each([
    ['subject', { subject: 'Hi\r\nBcc: evil@x.com' }],
    ['subject, LF only', { subject: 'Hi\nBcc: evil@x.com\n\nbody' }],
    ['subject, CR only', { subject: 'Hi\rBcc: evil@x.com' }],
    [
      'subject, other separators',
      { subject: 'Hi\u0085Bcc: a@x.com\u2028Bcc: b@x.com\u2029\u000bX-Evil: 1\0' },
    ],
    ['from', { from: 'rep@seller.com\r\nBcc: evil@x.com' }],
    ['from display name', { from: 'Rep\r\nBcc: evil@x.com\r\n <rep@seller.com>' }],
    ['to', { to: ['ann@acme.com\r\nBcc: evil@x.com'] }],
    ['to display name', { to: ['Ann\nBcc: evil@x.com <ann@acme.com>', 'b@acme.com'] }],
    ['cc', { cc: ['c@acme.com\r\nBcc: evil@x.com'] }],
    ['message id', { messageId: '<m@x>\r\nBcc: evil@x.com' }],
    ['in-reply-to', { inReplyTo: '<p@x>\r\nBcc: evil@x.com' }],
  ])('adds no header for an injection attempt in the %s', async (_case, overrides: Partial<OutgoingMail>) => {
    const raw = await composeMime(mailOf({ cc: ['c@acme.com'], ...overrides }));
    expectWellFormed(raw);
    const expected = ['Date', 'Message-ID', 'From', 'To', 'Cc', 'Subject'];
    if (overrides.inReplyTo) expected.push('In-Reply-To', 'References');
    expect(fieldNames(raw)).toEqual([...expected, 'MIME-Version', 'Content-Type']);
    expect(raw.toString()).not.toMatch(/^(Bcc|X-Evil):/im);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.map((header) => header.key)).not.toContain('bcc');
  });

  it('keeps Bcc out of the message entirely', async () => {
    const raw = await composeMime(
      mailOf({ bcc: ['archive@seller.com', 'Audit Team <audit@seller.com>', 'Ünïcödé <u@seller.com>'] }),
    );
    const parsed = await PostalMime.parse(raw);
    expect(parsed.bcc).toBeUndefined();
    expect(raw.toString()).not.toMatch(/^Bcc:/im);
    expect(raw.toString()).not.toMatch(/archive@|audit@|u@seller|Audit Team/);
  });

  it('writes no In-Reply-To or References when not replying, and no Cc when there is none', async () => {
    const raw = await composeMime(mailOf({ inReplyTo: null, cc: [] }));
    const parsed = await PostalMime.parse(raw);
    expect(parsed.inReplyTo).toBeUndefined();
    expect(parsed.references).toBeUndefined();
    expect(parsed.cc).toBeUndefined();
    expect(fieldNames(raw)).not.toContain('In-Reply-To');
    expect(fieldNames(raw)).not.toContain('References');
    expect(fieldNames(raw)).not.toContain('Cc');
  });

  it('writes a parseable RFC 5322 Date of the moment', async () => {
    const before = Date.now();
    const raw = await composeMime(mailOf());
    const value = /^Date: (.*)$/m.exec(sections(raw).header)![1]!.trimEnd();
    expect(value).toMatch(
      /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} \+0000$/,
    );
    const parsed = await PostalMime.parse(raw);
    const date = Date.parse(parsed.date!);
    expect(date).toBe(Date.parse(value));
    expect(date).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(date).toBeLessThanOrEqual(Date.now());
  });

  it('stays well-formed and round-trips any subject and body (property)', async () => {
    const character = fc.constantFrom(
      ...[
        'a',
        'Z',
        '0',
        ' ',
        ' ',
        '\t',
        '\r',
        '\n',
        '=',
        '?',
        '_',
        '"',
        '\\',
        '<',
        '>',
        ',',
        ';',
        ':',
        '.',
        '-',
      ],
      ...['é', 'ß', 'Ω', '日', '本', '🎉', '\u00a0', '\u0085', '\u2028', '\u0000', '\u007f'],
    );
    const text = (maxLength: number) => fc.string({ unit: character, maxLength });
    await fc.assert(
      fc.asyncProperty(text(200), text(400), text(40), async (subject, html, name) => {
        const raw = await composeMime(mailOf({ subject, html, from: `${name} <rep@seller.com>` }));
        expectWellFormed(raw);
        expect(fieldNames(raw)).toEqual([
          'Date',
          'Message-ID',
          'From',
          'To',
          'Subject',
          'MIME-Version',
          'Content-Type',
        ]);
        const parsed = await PostalMime.parse(raw);
        expect(parsed.from?.address).toBe('rep@seller.com');
        expect(parsed.subject ?? '').toBe(subject.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim());
        expect(parsed.html).toBe(asParsed(html, encodingOf(raw, 'html')));
        expect(parsed.text).toBe(asParsed(htmlToText(html), encodingOf(raw, 'plain')));
      }),
      { numRuns: 300 },
    );
  });
});

describe('backoffSeconds', () => {
  it('grows exponentially within its jitter band and stops at the cap', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(900, 30 * 2 ** (attempt - 1));
      const value = backoffSeconds(attempt, 30, 900);
      expect(value).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
      expect(value).toBeLessThanOrEqual(ceiling);
    }
  });
});
