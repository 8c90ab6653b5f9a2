import MailComposer from 'nodemailer/lib/mail-composer';
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

/** The raw MIME message (multipart/alternative: text and HTML). Bcc stays out of the headers. */
export async function composeMime(mail: OutgoingMail): Promise<Buffer> {
  const composer = new MailComposer({
    messageId: mail.messageId,
    from: mail.from,
    to: mail.to,
    cc: mail.cc.length > 0 ? mail.cc : undefined,
    subject: mail.subject,
    html: mail.html,
    text: htmlToText(mail.html),
    inReplyTo: mail.inReplyTo ?? undefined,
    references: mail.inReplyTo ?? undefined,
    date: new Date(),
  });
  return composer.compile().build();
}
