import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { CONTACT_STATUS_FILTERS } from '#schemas/resources.ts';

/**
 * Generic arbitraries of the bad-input cases: raw JSON text (so a member can
 * be 1e999 or -0), strings, numbers, ids, domains, dates, emails, query
 * strings and bodies that are no JSON object, members named like
 * Object.prototype members and JSON nested past the depth limit.
 */

export const json = (value: unknown): string => JSON.stringify(value);

/** A JSON object written from raw JSON member texts, in order (names such as `__proto__` too). */
export const membersText = (members: [string, string][]): string =>
  `{${members.map(([name, value]) => `${json(name)}:${value}`).join(',')}}`;

/** A JSON object written from raw JSON member texts. */
export const objectText = (members: Record<string, string>): string => membersText(Object.entries(members));

export const unicode = (maxLength: number, minLength = 0) =>
  fc.string({ unit: 'grapheme', minLength, maxLength });

/**
 * A string longer than `max` characters, made by repeating a short (possibly non-ASCII) unit. zod
 * counts a string's length in code points, so the unit's code points decide how often it repeats.
 */
export const longerThan = (max: number) =>
  fc
    .tuple(unicode(3, 1), fc.integer({ min: 1, max: 2000 }))
    .map(([unit, extra]) => unit.repeat(Math.floor(max / [...unit].length) + 1) + 'z'.repeat(extra));

/** An ASCII string longer than `max`, for paths and query strings (a long non-ASCII one would exceed the URL size limit once percent-encoded). */
export const asciiLongerThan = (max: number) =>
  fc.integer({ min: max + 1, max: max + 1000 }).map((length) => 'a'.repeat(length));

/** JSON values that are not strings. */
export const notAString = fc.constantFrom(
  '1',
  '-1',
  '1.5',
  'true',
  'false',
  'null',
  '[]',
  '{}',
  '["x"]',
  '{"a":"x"}',
);
/** JSON values that are not booleans. */
export const notABoolean = fc.constantFrom(
  '"true"',
  '"false"',
  '0',
  '1',
  'null',
  '[]',
  '{}',
  '"yes"',
  '""',
  '[true]',
);

/** Numbers no id may be: zero, negative, fractional, beyond 2^53−1, infinite (1e999), and non-numbers. */
export const badIdJson = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '-1',
    '1.5',
    '-0.5',
    '1e999',
    '-1e999',
    '9007199254740992',
    '1e20',
    '123456789012345678901234567890',
    '"101"',
    'null',
    'true',
    '[]',
    '{}',
    '[101]',
  ),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: 0 }).map(json),
  fc.double({ noNaN: true, noDefaultInfinity: true, noInteger: true }).map(json),
);

/** Integers outside [min, max], fractions and non-numbers, as JSON. */
export const badIntegerJson = (min: number, max?: number) =>
  fc.oneof(
    fc.integer({ min: -1e12, max: min - 1 }).map(json),
    max === undefined
      ? fc.constant('9007199254740993')
      : fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER }).map(json),
    fc.double({ noNaN: true, noDefaultInfinity: true, noInteger: true }).map(json),
    fc.constantFrom('1e999', '-1e999', '"10"', 'null', 'true', '[]', '{}'),
  );

/** Path or query text that is not a canonical id (1 to 2^53−1). */
export const badIdText = fc.oneof(
  fc.constantFrom(
    '0',
    '00',
    '-0',
    '-1',
    '+1',
    '1.5',
    '1.0',
    '1e3',
    '0x1f',
    '0b1',
    ' 1',
    '1 ',
    '1\t',
    'NaN',
    'Infinity',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    '١٢٣',
    '１２３',
    '12three',
    '9007199254740992',
    '10000000000000000',
    '1,000',
    '1_000',
    '%',
    '%25',
    '../101',
    '101;drop',
  ),
  fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }).map(String),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, noInteger: true }).map(String),
  // `.` and `..` would be removed by the client's URL normalization before they are sent.
  unicode(64, 1).filter((text) => !/^[0-9]+$/.test(text) && text !== '.' && text !== '..'),
  fc.integer({ min: 300, max: 3000 }).map((length) => 'x'.repeat(length)),
);

/** Ids that are well formed but name nothing (the imported and allocated ids are all small). */
export const unknownId = fc.oneof(
  fc.integer({ min: 1_000_000, max: 2 ** 31 }),
  fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }),
  fc.constant(Number.MAX_SAFE_INTEGER),
);

/** Text that is not a usable company domain (shared/schemas/domain-names.ts): 400 wherever a domain is taken. */
export const badDomainText = fc.oneof(
  fc.constantFrom(
    ' ',
    'localhost',
    'com',
    'acme',
    '.com',
    'acme.',
    'a..com',
    '-acme.com',
    'acme-.com',
    'ac_me.com',
    'exa mple.com',
    'acme.123',
    'acme.com:99999',
    '10.0.0.1',
    '127.0.0.1',
    '[::1]',
    'http://',
    'https://',
    'ü',
    '☃',
    '😀',
    `${'a'.repeat(64)}.com`,
    '%00',
    '\u0000.com',
  ),
  fc.ipV4(),
  fc.stringMatching(/^[a-z0-9-]{1,30}$/),
  fc.integer({ min: 1025, max: 1500 }).map((count) => `${'a.'.repeat(count)}com`),
);

/** Values no ISO 8601 date-time with offset is. */
export const badDateTimeText = fc.oneof(
  fc.constantFrom(
    '',
    'yesterday',
    'now',
    '2026-04-01',
    '2026-04-01T00:00:00',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-04-01T24:00:00Z',
    '2026-04-01 00:00:00Z',
    '1712000000',
    '-1',
    '2026-04-01T00:00:00+25:00',
    '+275761-01-01T00:00:00Z',
  ),
  unicode(40).filter((text) => !/^[0-9]{4}-/.test(text)),
);

/** Strings without `@`: never an email address. */
export const notAnEmail = fc.oneof(
  fc.constantFrom(
    '',
    'a@',
    '@b.com',
    'a b@c.com',
    'a@b',
    'a@@b.com',
    'ann@acme..com',
    `${'a'.repeat(320)}@x.com`,
  ),
  unicode(60).filter((text) => !text.includes('@')),
);

/** Query values no integer parameter bounded by [min, max] accepts. */
export const badIntegerText = (min: number, max?: number) =>
  fc.oneof(
    fc.integer({ min: -1e12, max: min - 1 }).map(String),
    max === undefined
      ? fc.constant('10000000000000000')
      : fc.integer({ min: max + 1, max: 1e15 }).map(String),
    fc.constantFrom(
      '',
      ' ',
      '1.5',
      '1e2',
      '+1',
      '-0',
      '0x10',
      'NaN',
      'Infinity',
      'abc',
      '١',
      '10000000000000000',
    ),
    unicode(40).filter((text) => !/^[0-9]{1,16}$/.test(text)),
  );

export const badStatusText = fc.oneof(
  fc.constantFrom(
    'pending-approval',
    'SCHEDULED',
    'Scheduled',
    'in_progress',
    'in progress',
    '',
    ' scheduled',
    'scheduled ',
    'replied,bounced',
    'null',
    'all',
    '*',
  ),
  unicode(40).filter((text) => !(CONTACT_STATUS_FILTERS as readonly string[]).includes(text)),
);

/** A percent-encoded path segment, as a client sends a value. */
export const segment = (text: string) => encodeURIComponent(text);

export const queryString = (pairs: [string, string][]): string =>
  pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`;

/** Unknown query parameters: ignored by every endpoint (docs/decisions.md). */
export const unknownParameters = (known: string[]) =>
  fc.array(
    fc.tuple(
      unicode(20, 1).filter((name) => !known.includes(name) && !PROTOTYPE_NAMES.includes(name)),
      unicode(50),
    ),
    { maxLength: 3 },
  );

/**
 * Query parameter names the local gateway cannot take yet (`constructor`, `__proto__`…: it collects
 * repeated values in a plain object and answers 500). Left out of the generators so they test the
 * handlers; the test 'the local gateway answers…' below covers them on every route.
 */
export const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** Member names that reach a prototype when code looks them up or assigns them on a plain object. */
export const prototypeName = fc.constantFrom(...PROTOTYPE_NAMES, 'prototype');

/** A JSON value (raw text) whose objects, at every level, are keyed by prototype names and others. */
export const prototypeKeyedJson: fc.Arbitrary<string> = fc.letrec<{
  value: string;
  array: string;
  object: string;
}>((tie) => ({
  value: fc.oneof(
    { depthIdentifier: 'prototypeKeyed', maxDepth: 4 },
    fc.constantFrom('null', 'true', '0', '-1.5', '""', '"x"', '[]', '{}'),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(fc.oneof(prototypeName, unicode(10, 1)), tie('value')), { minLength: 1, maxLength: 3 })
    .map(membersText),
})).value;

/**
 * JSON (raw text) nesting `levels` arrays or objects (keyed by prototype names) inside one another,
 * `levels` from 1 to 5,000: placed where the body already nests `outer` levels, it makes the whole
 * body nest from just past the limit (MAX_JSON_DEPTH + 1) to 5,000 deep.
 */
export const nestedJson = (outer: number) =>
  fc
    .tuple(
      fc.integer({ min: MAX_JSON_DEPTH + 1 - outer, max: 5000 - outer }),
      fc.constantFrom('arrays', 'objects', 'both'),
      prototypeName,
    )
    .map(([levels, kind, name]) => {
      const opening = (level: number) =>
        kind === 'arrays' || (kind === 'both' && level % 2 === 0) ? '[' : `{${json(name)}:`;
      const openings = Array.from({ length: levels }, (_, level) => opening(level));
      const closings = openings.map((open) => (open === '[' ? ']' : '}')).reverse();
      return { levels: levels + outer, text: `${openings.join('')}null${closings.join('')}` };
    });

/** Body texts that are not a JSON object at all: malformed JSON or another JSON value. */
export const notAJsonObject = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"',
    '{"a":}',
    '{a:1}',
    "{'a':1}",
    '[1,]',
    '{"a":1,}',
    '{"a":1}}',
    'nul',
    'tru',
    'NaN',
    'Infinity',
    'undefined',
    '\u0000',
    '\uFEFF{}',
    '{"a":"\\x41"}',
    '{"a":"\\ud800"',
  ),
  fc
    .json()
    .filter((text) => text.length > 1)
    .map((text) => text.slice(0, -1)),
  fc
    .oneof(
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      fc.string(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    )
    .map(json),
  fc.string({ unit: 'binary', maxLength: 200 }).filter((text) => !text.trim().startsWith('{')),
);

export const manyItems = (item: string, count: number) =>
  `[${Array.from({ length: count }, () => item).join(',')}]`;
