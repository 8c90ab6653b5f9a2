/**
 * HTML escaping for text put into a page or an email: in element content and
 * in a quoted attribute value alike (`& < > " '`).
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The text with `& < > " '` escaped as character references. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
