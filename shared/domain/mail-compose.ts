import { randomBytes } from 'node:crypto';
import { escapeHtml } from '#platform/html.ts';

/**
 * Email composition for replies: the HTML a reply body becomes, its text
 * alternative, and the MIME message with threading headers.
 */

/** Plain text as HTML: escaped, with every line break (`\r\n`, `\n`, `\r`) a `<br>`. */
export function plainTextToHtml(text: string): string {
  return escapeHtml(text).replace(/\r\n|\n|\r/g, '<br>');
}

/** A readable text alternative of an HTML body: breaks and paragraphs become newlines, tags go, entities decode. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The Message-ID of a stored message, stable across retries so receivers can drop duplicates. */
export const messageIdOf = (orgId: number, messageId: number, domain: string): string =>
  `<message-${messageId}.org-${orgId}@${domain}>`;

/** What a reply email carries. */
export interface OutgoingMail {
  messageId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  html: string;
  inReplyTo: string | null;
}

/*
 * The MIME message is composed here rather than by a mail library: a reply is
 * always the same shape (multipart/alternative of text and HTML, a handful of
 * headers), and the Lambda that sends it should not carry a general-purpose
 * composer and its MIME type table (every bundle stays close to a bare client).
 *
 * - Header values (RFC 5322): every run of control characters (CR and LF
 *   among them) becomes a space, so no value can end its field early and
 *   start another; values are trimmed. Text that is not printable ASCII (or
 *   looks like an encoded word) is written as RFC 2047 encoded words in UTF-8,
 *   B or Q, whichever is shorter, split between whole characters, each at most
 *   69 characters so that it fits a line after the longest field name
 *   (`Subject: `). Fields are folded at spaces before 78 characters; only an
 *   address or message id too long for a line of its own makes a longer one.
 * - Bodies (RFC 2045/2046): quoted-printable or base64, whichever is shorter,
 *   every line at most 76 characters. Quoted-printable writes each line break
 *   (LF or CRLF) as a CRLF hard break and a lone CR as `=0D`; base64 carries
 *   the text's bytes unchanged. The boundary starts with `=_`, which neither
 *   encoding can produce, so no body can contain it whatever its random part.
 */

/** The longest line a header is folded to (RFC 5322 §2.1.1). */
const MAX_HEADER_LINE = 78;
/** The longest encoded word: fits after `Subject: ` within MAX_HEADER_LINE (RFC 2047 allows 75). */
const MAX_ENCODED_WORD = MAX_HEADER_LINE - 'Subject: '.length;
/** The longest body line, soft line break included (RFC 2045 §6.7, §6.8). */
const MAX_BODY_LINE = 76;
const CRLF = '\r\n';

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
const CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;
/** Printable ASCII and space: what a header may carry as is. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Characters of an atom (RFC 5322 §3.2.3), and the space between atoms. */
const PHRASE_OF_ATOMS = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/;
/** What a Q-encoded word may carry literally in any position, a phrase's included (RFC 2047 §5 (3)). */
const Q_LITERAL = /^[A-Za-z0-9!*+\-/]$/;

/** A header value with every run of control characters a single space, trimmed. */
const headerText = (value: string): string => value.replace(CONTROLS, ' ').trim();

/** A field of one line or several: tokens joined by spaces, a line folded before a token that would pass 78. */
function field(name: string, tokens: string[]): string {
  let line = `${name}:`;
  const lines: string[] = [];
  for (const token of tokens) {
    if (line.length + 1 + token.length > MAX_HEADER_LINE && line.length > name.length + 1) {
      lines.push(line);
      line = '';
    }
    line += ` ${token}`;
  }
  lines.push(line);
  return lines.join(CRLF);
}

const hex = (byte: number): string => `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** One character (code point) Q-encoded (RFC 2047 §4.2, with the phrase's restricted literals). */
function qEncoded(character: string): string {
  if (character === ' ') return '_';
  if (Q_LITERAL.test(character)) return character;
  return Array.from(Buffer.from(character, 'utf8'), hex).join('');
}

/**
 * Text as RFC 2047 encoded words in UTF-8, B or Q (whichever is shorter), split
 * between whole characters so that each word decodes on its own.
 */
function encodedWords(text: string): string[] {
  const characters = Array.from(text);
  const prefixLength = '=?UTF-8?Q?'.length + '?='.length;
  const room = MAX_ENCODED_WORD - prefixLength;
  const qLength = characters.reduce((sum, character) => sum + qEncoded(character).length, 0);
  const bLength = Math.ceil(Buffer.byteLength(text) / 3) * 4;
  const words: string[] = [];
  if (qLength <= bLength) {
    let word = '';
    for (const character of characters) {
      const encoded = qEncoded(character);
      if (word.length + encoded.length > room) {
        words.push(`=?UTF-8?Q?${word}?=`);
        word = '';
      }
      word += encoded;
    }
    words.push(`=?UTF-8?Q?${word}?=`);
  } else {
    const maxBytes = Math.floor(room / 4) * 3;
    let chunk = '';
    for (const character of characters) {
      if (Buffer.byteLength(chunk + character) > maxBytes) {
        words.push(`=?UTF-8?B?${Buffer.from(chunk).toString('base64')}?=`);
        chunk = '';
      }
      chunk += character;
    }
    words.push(`=?UTF-8?B?${Buffer.from(chunk).toString('base64')}?=`);
  }
  return words;
}

/** Whether text may go into a header as it is (else it is encoded). */
const plainAscii = (text: string): boolean => PRINTABLE_ASCII.test(text) && !text.includes('=?');

/**
 * Unstructured text (Subject) as tokens: as is when printable ASCII whose words
 * all fit a line, else encoded words. Splitting only at a space before a
 * non-space keeps every space when the field is unfolded.
 */
function unstructured(value: string): string[] {
  const text = headerText(value);
  if (text === '') return [];
  if (plainAscii(text)) {
    const tokens = text.split(/ (?=[^ ])/);
    if (tokens.every((token) => token.length <= MAX_ENCODED_WORD)) return tokens;
  }
  return encodedWords(text);
}

/** A display name as tokens: atoms, a quoted string, or encoded words. */
function displayName(name: string): string[] {
  if (plainAscii(name)) {
    if (PHRASE_OF_ATOMS.test(name)) {
      const atoms = name.split(/ +/);
      if (atoms.every((atom) => atom.length <= MAX_ENCODED_WORD)) return atoms;
    }
    const quoted = `"${name.replace(/["\\]/g, '\\$&')}"`;
    if (quoted.length <= MAX_ENCODED_WORD) return [quoted];
  }
  return encodedWords(name);
}

/** An address as the callers pass it, `a@b.c` or `Name <a@b.c>`, its name unquoted. */
function parseAddress(value: string): { name: string; address: string } {
  const text = headerText(value);
  const match = /^(.*?)\s*<([^<>]*)>$/.exec(text);
  let name = match ? match[1]!.trim() : '';
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) {
    name = name.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  // Nothing that could end the address or start another in the header: no spaces, brackets, commas.
  const address = (match ? match[2]! : text).replace(/[\s<>,;]/g, '');
  return { name, address };
}

/** An address list field (From, To, Cc): each `Name <a@b.c>` or `a@b.c`, comma-separated, folded. */
function addressField(name: string, addresses: string[]): string {
  const tokens: string[] = [];
  addresses.forEach((value, index) => {
    const parsed = parseAddress(value);
    const separator = index < addresses.length - 1 ? ',' : '';
    if (parsed.name === '') {
      tokens.push(`${parsed.address}${separator}`);
    } else {
      tokens.push(...displayName(parsed.name), `<${parsed.address}>${separator}`);
    }
  });
  return field(name, tokens);
}

/** A message id field: the id with nothing but printable ASCII, no spaces. */
const messageIdField = (name: string, id: string): string => field(name, [id.replace(/[^\x21-\x7e]/g, '')]);

/** The date as RFC 5322 §3.3 writes it, in UTC. */
const rfc5322Date = (date: Date): string => date.toUTCString().replace(/GMT$/, '+0000');

/** The text's lines: CRLF and LF are line breaks (written as CRLF); a lone CR is content. */
const linesOf = (text: string): string[] => text.split(/\r\n|\n/);

/** Quoted-printable (RFC 2045 §6.7): lines of at most 76 characters, soft breaks `=`, trailing spaces encoded. */
function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of linesOf(text)) {
    const bytes = Buffer.from(line, 'utf8');
    let current = '';
    bytes.forEach((byte, index) => {
      const last = index === bytes.length - 1;
      const literal =
        (byte >= 0x21 && byte <= 0x7e && byte !== 0x3d) || ((byte === 0x20 || byte === 0x09) && !last);
      const token = literal ? String.fromCharCode(byte) : hex(byte);
      const fitsAsLast = last && current.length + token.length <= MAX_BODY_LINE;
      if (current.length + token.length > MAX_BODY_LINE - 1 && !fitsAsLast) {
        out.push(`${current}=`);
        current = '';
      }
      current += token;
    });
    out.push(current);
  }
  return out.join(CRLF);
}

/** Base64 (RFC 2045 §6.8), lines of 76 characters; the text's bytes as they are, so it decodes to exactly the text. */
function base64(text: string): string {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  return encoded.match(new RegExp(`.{1,${MAX_BODY_LINE}}`, 'g'))?.join(CRLF) ?? '';
}

/** A text part in UTF-8, quoted-printable or base64, whichever is shorter. */
function textPart(subtype: 'plain' | 'html', text: string): string {
  const qp = quotedPrintable(text);
  const b64 = base64(text);
  const [encoding, body] = qp.length <= b64.length ? ['quoted-printable', qp] : ['base64', b64];
  return [
    `Content-Type: text/${subtype}; charset=utf-8`,
    `Content-Transfer-Encoding: ${encoding}`,
    '',
    body,
  ].join(CRLF);
}

/** The raw MIME message (multipart/alternative: text and HTML). Bcc stays out of the headers. */
export async function composeMime(mail: OutgoingMail): Promise<Buffer> {
  const boundary = `=_${randomBytes(16).toString('hex')}`;
  const headers = [
    `Date: ${rfc5322Date(new Date())}`,
    messageIdField('Message-ID', mail.messageId),
    addressField('From', [mail.from]),
  ];
  if (mail.to.length > 0) headers.push(addressField('To', mail.to));
  if (mail.cc.length > 0) headers.push(addressField('Cc', mail.cc));
  headers.push(field('Subject', unstructured(mail.subject)));
  if (mail.inReplyTo !== null) {
    headers.push(messageIdField('In-Reply-To', mail.inReplyTo), messageIdField('References', mail.inReplyTo));
  }
  headers.push('MIME-Version: 1.0', `Content-Type: multipart/alternative;${CRLF} boundary="${boundary}"`);
  const message = [
    ...headers,
    '',
    `--${boundary}`,
    textPart('plain', htmlToText(mail.html)),
    `--${boundary}`,
    textPart('html', mail.html),
    `--${boundary}--`,
    '',
  ].join(CRLF);
  return Buffer.from(message, 'utf8');
}
