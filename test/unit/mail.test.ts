import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { composeMime, htmlToText, messageIdOf, plainTextToHtml } from '#domain/mail-compose.ts';
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
