import {
  MAX_VARIABLE_BYTES,
  MAX_VARIABLES,
  MAX_VARIABLES_TOTAL_BYTES,
} from '#definitions/snippet-variables.ts';

/**
 * The refinements the schemas of shared/schemas/ test values with (`z.refine`,
 * `z.custom`), as named functions: tested on their own (and at their edges)
 * apart from the schemas.
 */

/** One snippet variable's value: at most MAX_VARIABLE_BYTES of UTF-8. */
export function withinVariableBytes(value: string): boolean {
  return Buffer.byteLength(value) <= MAX_VARIABLE_BYTES;
}

/** At most MAX_VARIABLES snippet variables. */
export function withinVariableCount(variables: Record<string, string>): boolean {
  return Object.keys(variables).length <= MAX_VARIABLES;
}

/** At most MAX_VARIABLES_TOTAL_BYTES of names and values in all (UTF-8). */
export function withinVariablesTotalBytes(variables: Record<string, string>): boolean {
  let total = 0;
  for (const [name, value] of Object.entries(variables))
    total += Buffer.byteLength(name) + Buffer.byteLength(value);
  return total <= MAX_VARIABLES_TOTAL_BYTES;
}

/** The MCP SDK's `AssertObjectSchema`: anything but null that `typeof` calls an object or a function. */
export function isObjectLike(value: unknown): value is object {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

/**
 * What is wrong with a subscriber or provider API URL that the request alone shows, whatever the
 * deployment (the words of `checkWebhookUrl`, #platform/ssrf.ts, which checks it all again with
 * the deployment's policy and the host's addresses): not an absolute URL, another scheme than
 * https or http, or credentials in an https URL (an http URL's scheme is refused first where the
 * deployment refuses http). Undefined when nothing is.
 */
export function urlRequestProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https';
  if (url.protocol === 'https:' && (url.username || url.password)) return 'must not contain credentials';
  return undefined;
}

/** The character references plain text's `& < > " '` become in a reply's HTML (as #platform/html.ts writes them). */
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The bytes of a reply's HTML: `body` as given, or, as plain text, escaped with its line breaks made
 * `<br>` (#domain/mail-compose.ts `plainTextToHtml`; test/unit/reply-html-bytes.test.ts keeps them equal).
 */
export function replyHtmlBytes(body: string, plainText: boolean): number {
  if (!plainText) return Buffer.byteLength(body);
  return Buffer.byteLength(
    body.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!).replace(/\r\n|\n|\r/g, '<br>'),
  );
}
