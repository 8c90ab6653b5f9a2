import { expect } from 'vitest';

/**
 * What lets its holder act for an organization, as it would appear in an
 * answer: a provider webhook URL with its token (anyone holding it posts
 * provider events: bounces, replies), a webhook signing secret, an OAuth
 * client secret, an API key. A read-only credential (a `read` API key, a
 * dashboard viewer, an MCP token) must never be answered one
 * (docs/decisions.md, Read-only credentials).
 */
const WRITE_CREDENTIALS: [string, RegExp][] = [
  ['a provider webhook URL', /\/provider-webhooks\/\d+\/\d+\/[A-Za-z0-9_-]+/],
  ['a webhook signing secret', /whsec_[A-Za-z0-9+/=]{16,}/],
  ['an OAuth client secret', /mcs_[A-Za-z0-9_-]{16,}/],
  ['an API key', /(?<![A-Za-z0-9_.-])\d+\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/],
];

/** The write credentials in `text`, by kind, and any of the `known` ones (secrets the test made). */
export function writeCredentialsIn(text: string, known: readonly string[] = []): string[] {
  return [
    ...WRITE_CREDENTIALS.flatMap(([kind, pattern]) => {
      const found = pattern.exec(text);
      return found ? [`${kind}: ${found[0]}`] : [];
    }),
    ...known.filter((secret) => text.includes(secret)).map((secret) => `a known secret: ${secret}`),
  ];
}

/** Fails, saying which, when `text` holds a write credential. */
export function expectNoWriteCredential(text: string, what: string, known: readonly string[] = []): void {
  expect(writeCredentialsIn(text, known), what).toEqual([]);
}
