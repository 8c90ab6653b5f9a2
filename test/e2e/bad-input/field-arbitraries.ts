import fc from 'fast-check';
import { MAX_VARIABLE_BYTES, MAX_VARIABLES } from '#definitions/snippet-variables.ts';
import { PROVIDERS } from '#schemas/import.ts';
import { MAX_CAMPAIGN_CURSOR_LENGTH, MAX_PROVIDER_CAMPAIGN_ID_LENGTH } from '#schemas/provider-campaigns.ts';
import { MAX_PROVIDER_API_KEY_LENGTH, MAX_PROVIDER_BASE_URL_LENGTH } from '#schemas/provider-connections.ts';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_TYPES } from '#schemas/webhooks.ts';
import {
  badDomainText,
  json,
  longerThan,
  membersText,
  notAnEmail,
  notAString,
  objectText,
  PROTOTYPE_NAMES,
  prototypeKeyedJson,
  prototypeName,
  unicode,
} from './arbitraries.ts';

/**
 * Bad values of particular API fields: a push's contacts, reply recipients, webhook URLs and event
 * types, provider connections' fields and the unmatched events' cursor.
 */

/** A contact of a push that fails validation on its own (it lands in `errors`, the push goes on). */
export const invalidContact = fc.oneof(
  fc.constantFrom('1', '"ann@acme.com"', 'null', '[]', 'true', '{}', '{"firstName":"No Email"}'),
  notAnEmail.map((email) => objectText({ email: json(email) })),
  notAString.map((email) => objectText({ email })),
  fc.constantFrom(
    objectText({ email: json('v1@fresh-example.com'), variables: json({ 'bad-name': 'x' }) }),
    objectText({ email: json('v2@fresh-example.com'), variables: json({ '': 'x' }) }),
    objectText({ email: json('v3@fresh-example.com'), variables: json({ ok: 1 }) }),
    objectText({ email: json('v4@fresh-example.com'), variables: '[]' }),
    objectText({
      email: json('v5@fresh-example.com'),
      variables: json(
        Object.fromEntries(Array.from({ length: MAX_VARIABLES + 1 }, (_, i) => [`v${i}`, 'x'])),
      ),
    }),
    objectText({
      email: json('v6@fresh-example.com'),
      variables: json({ big: 'é'.repeat(MAX_VARIABLE_BYTES / 2 + 1) }),
    }),
    // Each value within its limit, but more than the contact's total.
    objectText({
      email: json('v7@fresh-example.com'),
      variables: json({ a: 'x'.repeat(MAX_VARIABLE_BYTES), b: 'x'.repeat(MAX_VARIABLE_BYTES) }),
    }),
  ),
  badDomainText.map((domain) =>
    objectText({ email: json('d@fresh-example.com'), companyDomain: json(domain) }),
  ),
  longerThan(200).map((name) => objectText({ email: json('n@fresh-example.com'), firstName: json(name) })),
  // Names no variable may have: `__proto__` (which zod and the marshaller would drop unseen) and the other `__…__`.
  fc
    .tuple(fc.constantFrom(...PROTOTYPE_NAMES.filter((name) => name.startsWith('_'))), prototypeName)
    .map(([badName, otherName]) =>
      objectText({
        email: json('p1@fresh-example.com'),
        variables: membersText([
          [otherName, json('x')],
          [badName, json('y')],
        ]),
      }),
    ),
  // A variable named like a prototype member whose value is not a string, or a contact with another flaw
  // carrying such members at every level.
  fc
    .tuple(
      prototypeName,
      prototypeKeyedJson.filter((value) => !value.startsWith('"')),
    )
    .map(([name, value]) =>
      objectText({ email: json('p2@fresh-example.com'), variables: membersText([[name, value]]) }),
    ),
  fc
    .tuple(notAnEmail, fc.array(fc.tuple(prototypeName, prototypeKeyedJson), { minLength: 1, maxLength: 3 }))
    .map(([email, members]) =>
      membersText([
        ...members,
        ['email', json(email)],
        ['variables', membersText(members.map(([name]) => [name, json('x')]))],
      ]),
    ),
);

export const badAddressList = fc.oneof(
  notAString,
  fc.constantFrom(
    '""',
    '","',
    '" , "',
    '"not-an-email"',
    '"ann@acme.com, junk"',
    '"ann@acme.com;bob@globex.io"',
  ),
  // Appended after a comma, the text must leave something between commas: the list skips empty
  // entries, so `ann@acme.com,,` (the text ",") is a valid list of one.
  notAnEmail
    .filter((text) => text.split(',').some((part) => part.trim() !== ''))
    .map((text) => json(`ann@acme.com,${text}`)),
  longerThan(10_000).map(json),
);

/** Subscriber URLs the SSRF check refuses even in the local stack (which allows loopback). */
export const refusedUrl = fc.oneof(
  fc.constantFrom(
    'https://10.0.0.1/hook',
    'https://192.168.1.1/',
    'https://172.16.0.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/',
    'https://224.0.0.1/',
    'https://0.0.0.0/',
    'https://0/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[64:ff9b::a00:1]/',
    'http://8.8.8.8/hook',
    'https://user:pw@127.0.0.1/',
    'ftp://127.0.0.1/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/plain,hi',
    '//127.0.0.1/',
    '/relative',
  ),
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
    .map(([a, b]) => `https://10.${a}.${b}.1/`),
  unicode(80).filter((text) => !/^\s*[a-z][a-z0-9+.-]*:/i.test(text)),
);

export const badWebhookUrl = fc.oneof(
  notAString,
  fc.constant('""'),
  longerThan(MAX_WEBHOOK_URL_LENGTH).map(json),
  refusedUrl.map(json),
);

export const badEvents = fc.oneof(
  fc.constantFrom(
    '[]',
    '"first_touch"',
    'null',
    '{}',
    '[1]',
    '["FIRST_TOUCH"]',
    '["first-touch"]',
    '["test"]',
    '["first_touch",null]',
    '[["first_touch"]]',
  ),
  fc
    .array(
      unicode(30).filter((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name)),
      { minLength: 1, maxLength: 4 },
    )
    .map(json),
);

/** Anything but one of the provider names, exactly. */
export const badProvider = fc.oneof(
  notAString,
  fc.constantFrom(
    '""',
    '"Smartlead"',
    '"SMARTLEAD"',
    '"smartlead "',
    '" smartlead"',
    '"mailchimp"',
    '"apollo"',
  ),
  unicode(30)
    .filter((name) => !(PROVIDERS as readonly string[]).includes(name))
    .map(json),
);

/** Provider API keys the endpoint refuses: not a string, blank once trimmed, too long once trimmed. */
export const badProviderApiKey = fc.oneof(
  notAString,
  fc.constantFrom('""', '" "', '"\\t\\n "', json('\u00a0\u3000\u2028\ufeff')),
  // Framed by letters, so trimming leaves it as long.
  longerThan(MAX_PROVIDER_API_KEY_LENGTH).map((key) => json(`k${key}`)),
);

/** Base URLs the endpoint refuses: not a string (null is valid: the public API), empty, too long, or an address the SSRF rules refuse. */
export const badBaseUrl = fc.oneof(
  notAString.filter((value) => value !== 'null'),
  fc.constant('""'),
  longerThan(MAX_PROVIDER_BASE_URL_LENGTH).map((url) => json(`https://${url}.example`)),
  refusedUrl.map(json),
);

/** The shape of the unmatched events' cursor (the `next` of a previous page). */
export const UNMATCHED_CURSOR = /^[0-9T:.Z-]{1,40}#[A-Za-z0-9:_.-]{1,300}$/;

/** Cursors of no such shape. */
export const badUnmatchedCursor = fc.oneof(
  fc.constantFrom(
    '',
    '#',
    '2026-04-01T00:00:00.000Z',
    '2026-04-01T00:00:00.000Z#',
    '#a1b2',
    'yesterday#a1b2',
    '2026-04-01T00:00:00.000Z#a b',
    '2026-04-01T00:00:00.000Z#ä',
    '2026-04-01T00:00:00.000Z#a/b',
    '2026-04-01T00:00:00.000Z##',
    `${'1'.repeat(41)}#a`,
    `1#${'a'.repeat(301)}`,
    '101',
  ),
  unicode(60).filter((text) => !UNMATCHED_CURSOR.test(text)),
);

/** The shape of a provider campaign listing's cursor (base64url; what it decodes to is checked after). */
export const CAMPAIGN_CURSOR = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CAMPAIGN_CURSOR_LENGTH}}$`);

/** Campaign listing cursors no page gave: of no such shape, or of the shape but naming no position. */
export const badCampaignCursor = fc.oneof(
  fc.constantFrom(
    '',
    'a b',
    'ab+/',
    'ab==',
    'ä',
    'x'.repeat(MAX_CAMPAIGN_CURSOR_LENGTH + 1),
    // Base64url of `{}`, `[]`, `null` and `{"p":"x","o":3}`: no position of a listing.
    'e30',
    'W10',
    'bnVsbA',
    Buffer.from(JSON.stringify({ p: 'x', o: 3 })).toString('base64url'),
  ),
  unicode(60).filter((text) => !CAMPAIGN_CURSOR.test(text)),
);

/** Provider campaign ids a link refuses: not a string, empty, too long, or with a space or a control. */
export const badProviderCampaignId = fc.oneof(
  notAString,
  fc.constantFrom('""', '" "', json('a b'), json('cam\n1'), json('é')),
  longerThan(MAX_PROVIDER_CAMPAIGN_ID_LENGTH).map(json),
);
