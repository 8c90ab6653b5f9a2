import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyImport, validateImport } from '#admin/import.ts';
import { JSON_TOO_DEEP_MESSAGE, MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { MAX_BODY_BYTES } from '#definitions/request-limits.ts';
import { routes } from '#definitions/routes.ts';
import { createApiKey, revokeApiKey } from '#domain/api-keys.ts';
import { requestFingerprint } from '#domain/idempotency.ts';
import { createOAuthClient, revokeOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { createWebhook, MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { MAX_JOBS_PAGE } from '#schemas/jobs.ts';
import { MAX_PAGE_SIZE } from '#schemas/params.ts';
import { MAX_CONTACTS_PER_REQUEST, pushContactsEndpoint } from '#schemas/raw.ts';
import { MAX_RECIPIENTS, MAX_REPLY_BODY } from '#schemas/replies.ts';
import { CONTACT_STATUS_FILTERS } from '#schemas/resources.ts';
import { MAX_VARIABLE_BYTES, MAX_VARIABLES } from '#schemas/variables.ts';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_TYPES } from '#schemas/webhooks.ts';
import { keys } from '#store/keys.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { smallDocument } from '../support/fixtures.ts';
import { startTestStack } from '../support/local-stack.ts';
import { clientCredentialsToken } from '../support/oauth.ts';
import { countRequests, type ObservedCall } from '../support/request-counter.ts';

/**
 * Bad input, property-based: every route of the manifest gets at least RUNS
 * generated bad requests over real HTTP against the local stack — malformed
 * and non-object JSON, wrong types, huge, negative and fractional numbers,
 * unicode and long strings, missing and extra fields, members named like
 * Object.prototype members at every level, bodies nested deeper than the
 * limit, bad path and query values, bad credentials, methods a route lacks
 * and oversized bodies. Each
 * generated case knows what is wrong with it and so which answer is right:
 *
 * - never a 5xx, and the status the spec, docs/decisions.md or the handler
 *   gives that flaw (400 validation, 401 credentials, 404 unknown resource or
 *   route, 409/422 state conflicts, 413 size);
 * - the body speaks the route's protocol: `{message}` and nothing else for the
 *   API (naming the offending field where one is), RFC 6749 error JSON or an
 *   HTML page / error redirect for the OAuth endpoints, JSON-RPC errors and
 *   MCP tool errors for /mcp;
 * - nothing is written: every DynamoDB call the request causes is observed
 *   and no write is accepted (see `unexpectedWrites` for the two exceptions).
 *
 * A route added to the manifest without a generator fails the first test.
 */

const RUNS = 200;

type Route = (typeof routes)[number];
type RouteName = Route['name'];

// ---------------------------------------------------------------------------
// Requests, expected answers and how they are checked

interface BadRequest {
  method: string;
  /** Path and query string, encoded as a client sends them. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * How the answer must look:
 * - `message`: JSON `{"message": string}` and nothing else (the API, the gateway, /mcp's HTTP errors);
 * - `oauth`: RFC 6749 error JSON `{error, error_description}`;
 * - `html`: the authorization endpoint's error or consent page (RFC 6749 §4.1.2.1: never redirect to an unverified URI);
 * - `redirect`: a 302 to the client's registered redirect URI carrying `error`, `state` and `iss`;
 * - `jsonrpc`: a JSON-RPC 2.0 error object;
 * - `toolError`: an MCP tool result with `isError: true` and a readable text;
 * - `ignored`: the flaw is something the service ignores by design (unknown query
 *   parameters, per-contact errors of a push): a 200 JSON answer that wrote nothing.
 */
type Protocol = 'message' | 'oauth' | 'html' | 'redirect' | 'jsonrpc' | 'toolError' | 'ignored';

interface Case {
  /** What is wrong with the request, shown when the case fails. */
  flaw: string;
  request: BadRequest;
  status: number;
  protocol: Protocol;
  /** A field the `{message}` must name (validation messages name the offending field). */
  mentions?: string;
  /** The exact `message`, when the gateway or a fixed text answers. */
  message?: string;
  /** The OAuth or redirect `error` code. */
  error?: string;
  /** JSON-RPC: the error codes allowed, and the request id the answer must carry. */
  codes?: readonly number[];
  rpcId?: number | string;
  /** Redirect: the `state` the client sent. */
  state?: string;
  /** A header the answer must carry (the OAuth challenge of /mcp, its `allow`). */
  header?: { name: string; value: RegExp };
  /** The media type of an `ignored` answer (JSON unless said). */
  contentType?: RegExp;
  /** Extra checks on an `ignored` answer's body. */
  ignoredBody?: (body: Record<string, unknown>) => void;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

let stack: LocalStack;

async function send(request: BadRequest): Promise<Answer> {
  const response = await fetch(`${stack.apiUrl}${request.url}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const RFC6749_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'access_denied',
  'unsupported_response_type',
];

function parseJson(answer: Answer): unknown {
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  return JSON.parse(answer.text);
}

/** Asserts the answer has the case's status and speaks the case's protocol. */
function checkAnswer(c: Case, answer: Answer): void {
  expect(answer.status).toBeLessThan(500);
  expect(answer.status).toBe(c.status);
  if (c.header) expect(answer.headers.get(c.header.name)).toMatch(c.header.value);
  switch (c.protocol) {
    case 'message': {
      const body = parseJson(answer) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['message']);
      expect(body.message).toEqual(expect.any(String));
      expect((body.message as string).length).toBeGreaterThan(0);
      if (c.message !== undefined) expect(body.message).toBe(c.message);
      if (c.mentions !== undefined) expect(body.message).toContain(c.mentions);
      return;
    }
    case 'oauth': {
      const body = parseJson(answer) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
      expect(RFC6749_ERRORS).toContain(body.error);
      if (c.error !== undefined) expect(body.error).toBe(c.error);
      expect(body.error_description).toEqual(expect.any(String));
      expect(answer.headers.get('cache-control')).toContain('no-store');
      if (answer.status === 401) expect(answer.headers.get('www-authenticate')).toMatch(/^Basic /);
      return;
    }
    case 'html': {
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.text).toMatch(/^<!doctype html>/);
      expect(answer.headers.get('location')).toBeNull();
      return;
    }
    case 'redirect': {
      const location = new URL(answer.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(location.searchParams.get('error')).toBe(c.error);
      expect(location.searchParams.get('code')).toBeNull();
      expect(location.searchParams.get('iss')).toBe(stack.apiUrl);
      expect(location.searchParams.get('state')).toBe(c.state ?? null);
      return;
    }
    case 'jsonrpc': {
      const body = parseJson(answer) as Record<string, unknown>;
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
      const error = body.error as { code: number; message: unknown };
      expect(Number.isInteger(error.code)).toBe(true);
      expect(error.message).toEqual(expect.any(String));
      if (c.codes !== undefined) expect(c.codes).toContain(error.code);
      expect(body.id).toBe(c.rpcId ?? null);
      return;
    }
    case 'toolError': {
      const body = parseJson(answer) as Record<string, unknown>;
      expect(body).toMatchObject({ jsonrpc: '2.0', id: c.rpcId, result: { isError: true } });
      const content = (body.result as { content: { type: string; text: string }[] }).content;
      expect(content[0]?.type).toBe('text');
      expect(content[0]?.text.length).toBeGreaterThan(0);
      return;
    }
    case 'ignored': {
      if (c.contentType && !c.contentType.test('application/json')) {
        expect(answer.headers.get('content-type')).toMatch(c.contentType);
        return;
      }
      const body = parseJson(answer) as Record<string, unknown>;
      expect(body).toEqual(expect.any(Object));
      expect(body).not.toHaveProperty('message');
      c.ignoredBody?.(body);
      return;
    }
  }
}

const WRITE_OPERATIONS = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

const partitionOf = (key: unknown): string => {
  const pk = (key as { pk?: unknown } | undefined)?.pk;
  return typeof pk === 'string' ? pk : String((pk as { S?: string } | undefined)?.S);
};

/**
 * The writes DynamoDB accepted while a request ran, but two that are no
 * writes of the request's data:
 * - the authorizer's (and the consent form's key check's) last-used time of an
 *   API key, recorded at most once a minute per key (docs/decisions.md), so
 *   whether it happens depends on the clock, not on the request;
 * - an Idempotency-Key claimed before the push runs and released when it fails
 *   (a Put and then a Delete of the same item), which leaves nothing behind;
 * - the MCP server's count of a client's requests in the current second (its
 *   rate limit), which every authenticated request to /mcp raises.
 * Writes refused by their condition (a webhook or code that does not exist) changed nothing.
 */
function unexpectedWrites(calls: ObservedCall[]): string[] {
  const accepted = calls.filter((call) => call.succeeded && WRITE_OPERATIONS.has(call.operation));
  const released = new Set(
    accepted
      .filter(
        (call) => call.operation === 'DeleteItem' && partitionOf(call.input.Key).includes('#IDEMPOTENCY#'),
      )
      .map((call) => partitionOf(call.input.Key)),
  );
  return accepted
    .filter((call) => {
      if (call.operation === 'UpdateItem' && partitionOf(call.input.Key).startsWith('APIKEY#'))
        return call.input.UpdateExpression !== 'SET lastUsedAt = :now';
      if (call.operation === 'UpdateItem' && partitionOf(call.input.Key).startsWith('MCPRATE#')) return false;
      if (call.operation === 'PutItem' && released.has(partitionOf(call.input.Item))) return false;
      if (call.operation === 'DeleteItem' && released.has(partitionOf(call.input.Key))) return false;
      return true;
    })
    .map((call) => `${call.operation} ${JSON.stringify(call.input).slice(0, 300)}`);
}

const describeRequest = (request: BadRequest) =>
  `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 200)} ${
    request.body === undefined ? '' : request.body.slice(0, 300)
  }`;

// ---------------------------------------------------------------------------
// What the generators aim at: resources that exist, so validation is exercised
// in front of real data, and ids that do not.

const REDIRECT_URI = 'https://assistant.example/callback';

interface World {
  orgId: number;
  apiKey: string;
  /** A valid key of another organization (the consent form refuses it for this organization's client). */
  otherApiKey: string;
  revokedApiKey: string;
  /** A key of an organization that has the maximum number of webhooks. */
  fullApiKey: string;
  receiverUrl: string;
  webhookId: number;
  deliveryId: number;
  /** A delivery whose event payload is gone (kept 30 days): redelivering it is 409. */
  expiredDeliveryId: number;
  client: { clientId: string; clientSecret: string };
  revokedClientId: string;
  accessToken: string;
  /** An Idempotency-Key used with `{contacts: []}` on campaign 101 (another body under it is 422). */
  usedIdempotencyKey: string;
  /** An Idempotency-Key whose request is still running (the same request again is 409). */
  runningIdempotencyKey: string;
}

let world: World;
let receiver: Server;

async function rest(method: string, path: string, body?: unknown, key = world.apiKey) {
  const response = await fetch(`${stack.apiUrl}/public/v1${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the stack's background work (stream relay, webhook dispatcher) makes no more DynamoDB calls. */
async function settle(): Promise<void> {
  for (let quiet = 0, rounds = 0; quiet < 2; rounds++) {
    if (rounds > 100) throw new Error('the local stack does not settle');
    quiet = (await countRequests(() => sleep(200))).count === 0 ? quiet + 1 : 0;
  }
}

/** Sends a test event to the webhook and waits until it is delivered; returns the delivery id. */
async function deliveredTestEvent(webhookId: number): Promise<{ deliveryId: number; eventId: string }> {
  const test = await rest('POST', `/webhooks/${webhookId}/test`);
  const delivery = test.body.delivery as { id: number; event_id: string };
  for (let attempt = 0; ; attempt++) {
    const log = await rest('GET', `/webhooks/${webhookId}/deliveries`);
    const found = (log.body.data as { id: number; status: string }[]).find((item) => item.id === delivery.id);
    if (found?.status === 'delivered') return { deliveryId: delivery.id, eventId: delivery.event_id };
    if (attempt > 100) throw new Error(`delivery ${delivery.id} was not delivered`);
    await sleep(100);
  }
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const { orgId } = await createOrganization('Bad Input Inc');
  const { apiKey } = await createApiKey(orgId);
  const validated = validateImport(smallDocument());
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  await applyImport(orgId, validated.document);
  const revoked = await createApiKey(orgId);
  await revokeApiKey(orgId, revoked.keyId);

  const other = await createOrganization('Other Inc');
  const { apiKey: otherApiKey } = await createApiKey(other.orgId);
  const full = await createOrganization('Full Inc');
  const { apiKey: fullApiKey } = await createApiKey(full.orgId);
  for (let index = 0; index < MAX_WEBHOOKS_PER_ORGANIZATION; index++)
    await createWebhook(full.orgId, { url: receiverUrl, events: ['first_touch'] });

  // The /mcp cases are sent back to back, far faster than the default per-client rate.
  const client = await createOAuthClient(orgId, 'Assistant', [REDIRECT_URI], {
    rateLimit: MAX_MCP_CLIENT_RATE,
  });
  const revokedClient = await createOAuthClient(orgId, 'Revoked', [REDIRECT_URI]);
  await revokeOAuthClient(orgId, revokedClient.clientId);
  const accessToken = await clientCredentialsToken(stack.apiUrl, client);

  world = {
    orgId,
    apiKey,
    otherApiKey,
    revokedApiKey: revoked.apiKey,
    fullApiKey,
    receiverUrl,
    webhookId: 0,
    deliveryId: 0,
    expiredDeliveryId: 0,
    client,
    revokedClientId: revokedClient.clientId,
    accessToken,
    usedIdempotencyKey: 'bad-input-used-key',
    runningIdempotencyKey: 'bad-input-running-key',
  };
  const webhook = await rest('POST', '/webhooks', { url: receiverUrl, events: ['first_touch'] });
  world.webhookId = webhook.body.id as number;
  world.deliveryId = (await deliveredTestEvent(world.webhookId)).deliveryId;
  const expired = await deliveredTestEvent(world.webhookId);
  world.expiredDeliveryId = expired.deliveryId;
  await dynamo.send(
    new DeleteCommand({ TableName: tableName(), Key: keys.webhookEvent(orgId, expired.eventId) }),
  );

  const used = await fetch(`${stack.apiUrl}/public/v1/campaigns/101/raw/contacts`, {
    method: 'POST',
    headers: {
      'x-api-key': apiKey,
      'content-type': 'application/json',
      'idempotency-key': world.usedIdempotencyKey,
    },
    body: JSON.stringify({ contacts: [] }),
  });
  expect(used.status).toBe(200);
  await dynamo.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.idempotency(orgId, world.runningIdempotencyKey),
        type: 'idempotency',
        orgId,
        fingerprint: requestFingerprint('raw-push:101', pushContactsEndpoint.body.parse(RUNNING_PUSH)),
        state: 'running',
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      },
    }),
  );
  // Every key the cases use validly is verified once now, so its last-used time is written here.
  for (const key of [apiKey, otherApiKey, fullApiKey])
    expect((await rest('GET', '/auth', undefined, key)).status).toBe(200);
  await settle();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** The body of the request still "running" under `runningIdempotencyKey`. */
const RUNNING_PUSH = { contacts: [{ email: 'running@fresh-example.com' }] };

// ---------------------------------------------------------------------------
// Generic arbitraries: raw JSON text (so a member can be 1e999 or -0), strings, numbers

const json = (value: unknown): string => JSON.stringify(value);

/** A JSON object written from raw JSON member texts, in order (names such as `__proto__` too). */
const membersText = (members: [string, string][]): string =>
  `{${members.map(([name, value]) => `${json(name)}:${value}`).join(',')}}`;

/** A JSON object written from raw JSON member texts. */
const objectText = (members: Record<string, string>): string => membersText(Object.entries(members));

const unicode = (maxLength: number, minLength = 0) => fc.string({ unit: 'grapheme', minLength, maxLength });

/**
 * A string longer than `max` characters, made by repeating a short (possibly non-ASCII) unit. zod
 * counts a string's length in code points, so the unit's code points decide how often it repeats.
 */
const longerThan = (max: number) =>
  fc
    .tuple(unicode(3, 1), fc.integer({ min: 1, max: 2000 }))
    .map(([unit, extra]) => unit.repeat(Math.floor(max / [...unit].length) + 1) + 'z'.repeat(extra));

/** An ASCII string longer than `max`, for paths and query strings (a long non-ASCII one would exceed the URL size limit once percent-encoded). */
const asciiLongerThan = (max: number) =>
  fc.integer({ min: max + 1, max: max + 1000 }).map((length) => 'a'.repeat(length));

/** JSON values that are not strings. */
const notAString = fc.constantFrom(
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
const notABoolean = fc.constantFrom(
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
const badIdJson = fc.oneof(
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
const badIntegerJson = (min: number, max?: number) =>
  fc.oneof(
    fc.integer({ min: -1e12, max: min - 1 }).map(json),
    max === undefined
      ? fc.constant('9007199254740993')
      : fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER }).map(json),
    fc.double({ noNaN: true, noDefaultInfinity: true, noInteger: true }).map(json),
    fc.constantFrom('1e999', '-1e999', '"10"', 'null', 'true', '[]', '{}'),
  );

/** Path or query text that is not a canonical id (1 to 2^53−1). */
const badIdText = fc.oneof(
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
const unknownId = fc.oneof(
  fc.integer({ min: 1_000_000, max: 2 ** 31 }),
  fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }),
  fc.constant(Number.MAX_SAFE_INTEGER),
);

/** Text that is not a usable company domain (shared/schemas/domain-names.ts): 400 wherever a domain is taken. */
const badDomainText = fc.oneof(
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
const badDateTimeText = fc.oneof(
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
const notAnEmail = fc.oneof(
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
const badIntegerText = (min: number, max?: number) =>
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

const badStatusText = fc.oneof(
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
const segment = (text: string) => encodeURIComponent(text);

// ---------------------------------------------------------------------------
// Request-level flaws shared by the API routes

const API_PREFIX = '/public/v1';

/** Fills a route's path template. */
const urlOf = (path: string, parameters: Record<string, string> = {}): string =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => parameters[name] ?? '');

/** Methods no route of this path has: the gateway answers 404 for them (docs/decisions.md). */
function missingMethods(route: Route): string[] {
  const defined = routes.filter((other) => other.path === route.path).map((other) => other.method as string);
  if (defined.includes('ANY')) return [];
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => !defined.includes(method));
}

/** Headers with which the authorizer must refuse the request (401 before anything else runs). */
const badApiKeyHeaders = () =>
  fc.oneof(
    fc.constant({ flaw: 'no x-api-key', headers: {} }),
    fc.constant({ flaw: 'an empty x-api-key', headers: { 'x-api-key': '' } }),
    fc
      .string({
        unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
        maxLength: 120,
      })
      .map((key) => ({ flaw: 'a junk key', headers: { 'x-api-key': key } })),
    fc
      .tuple(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
      .map(([org, secret]) => ({ flaw: 'an unknown key', headers: { 'x-api-key': `${org}.${secret}` } })),
    fc.constant({ flaw: 'a revoked key', headers: { 'x-api-key': world.revokedApiKey } }),
    fc.constant({
      flaw: 'a real secret under another organization id',
      headers: { 'x-api-key': `${world.orgId + 1}.${world.apiKey.split('.')[1]}` },
    }),
    fc.constant({ flaw: 'a key with a leading zero', headers: { 'x-api-key': `0${world.apiKey}` } }),
    fc
      .integer({ min: 65, max: 4096 })
      .map((length) => ({ flaw: 'an overlong key', headers: { 'x-api-key': `1.${'k'.repeat(length)}` } })),
  );

/** A body over the 6 MiB limit; built once, the same text every time. */
let hugeBody: string | undefined;
const tooLargeBody = () => {
  hugeBody ??= json({ field: 'x'.repeat(MAX_BODY_BYTES) });
  return hugeBody;
};

/** The gateway's own answers (shared/definitions/gateway-responses.ts). */
const NOT_FOUND = 'Not found';
const UNAUTHORIZED = 'Unauthorized';
const TOO_LARGE = 'Request body too large';

/** Flaws of the request as a whole, whatever the route: a method it lacks, an oversized body. */
function requestFlaws(route: Route, valid: BadRequest): fc.Arbitrary<Case>[] {
  const flaws: fc.Arbitrary<Case>[] = [];
  const missing = missingMethods(route);
  if (missing.length > 0) {
    flaws.push(
      fc.constantFrom(...missing).map(
        (method): Case => ({
          flaw: `method ${method}`,
          request: { ...valid, method, body: method === 'GET' ? undefined : valid.body },
          status: 404,
          protocol: 'message',
          message: NOT_FOUND,
        }),
      ),
    );
  }
  // fetch sends no body with GET; the gateway refuses a large body before it routes, so POST it.
  flaws.push(
    fc.constant<Case>({
      flaw: 'a body over 6 MiB',
      request: {
        ...valid,
        method: valid.method === 'GET' ? 'POST' : valid.method,
        headers: { ...valid.headers, 'content-type': 'application/json' },
        body: tooLargeBody(),
      },
      status: 413,
      protocol: 'message',
      message: TOO_LARGE,
    }),
  );
  return flaws;
}

// ---------------------------------------------------------------------------
// The API routes (`{message}` errors), described by their inputs

interface BodyField {
  /** Raw JSON of a valid value. */
  good: string;
  required: boolean;
  /** Raw JSON of values the endpoint refuses with 400. */
  bad: fc.Arbitrary<string>;
}

interface QueryParameter {
  /** A valid value: sent before the bad one in the repeated-parameter cases (the last value counts). */
  good?: string;
  bad: fc.Arbitrary<string>;
}

interface PathParameter {
  /** A valid value naming something that exists. */
  good: string;
  bad: fc.Arbitrary<string>;
  /** Well-formed values naming nothing (404); absent when any value is a legitimate search (a domain). */
  unknown?: fc.Arbitrary<string>;
}

interface ApiEndpoint {
  path?: Record<string, PathParameter>;
  query?: Record<string, QueryParameter>;
  /** Query parameters a valid request sends. */
  goodQuery?: Record<string, string>;
  body?: Record<string, BodyField>;
  /** Flaws only this endpoint has (state conflicts, cross-field rules, partial acceptance). */
  extra?: (valid: BadRequest) => fc.Arbitrary<Case>[];
}

const queryString = (pairs: [string, string][]): string =>
  pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`;

/** Unknown query parameters: ignored by every endpoint (docs/decisions.md). */
const unknownParameters = (known: string[]) =>
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
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** Member names that reach a prototype when code looks them up or assigns them on a plain object. */
const prototypeName = fc.constantFrom(...PROTOTYPE_NAMES, 'prototype');

/** A JSON value (raw text) whose objects, at every level, are keyed by prototype names and others. */
const prototypeKeyedJson: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>(
  (tie) => ({
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
  }),
).value;

/**
 * JSON (raw text) nesting `levels` arrays or objects (keyed by prototype names) inside one another,
 * `levels` from 1 to 5,000: placed where the body already nests `outer` levels, it makes the whole
 * body nest from just past the limit (MAX_JSON_DEPTH + 1) to 5,000 deep.
 */
const nestedJson = (outer: number) =>
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
const notAJsonObject = fc.oneof(
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

/** Flaws of a JSON body: not an object, empty, a required field missing, a field with a bad value; unknown fields beside them. */
function bodyFlaws(fields: Record<string, BodyField>) {
  const names = Object.keys(fields);
  const required = names.filter((name) => fields[name]!.required);
  const goodMembers = Object.fromEntries(names.map((name) => [name, fields[name]!.good]));
  // Unknown members are ignored, also when named like Object.prototype members and holding more of them.
  const extras = fc.array(
    fc.tuple(
      fc.oneof(prototypeName, unicode(20, 1)).filter((name) => !names.includes(name)),
      fc.oneof(fc.json({ maxDepth: 1 }), prototypeKeyedJson),
    ),
    { maxLength: 3 },
  );
  const flaws: fc.Arbitrary<{ flaw: string; body: string; mentions?: string; message?: string }>[] = [
    notAJsonObject.map((body) => ({ flaw: 'not a JSON object', body })),
    fc.constant({ flaw: 'an empty body', body: '' }),
    fc.tuple(fc.constantFrom(...names), extras).chain(([name, extra]) =>
      fields[name]!.bad.map((value) => ({
        flaw: `${name} is ${value.slice(0, 100)}`,
        body: membersText([...extra, ...Object.entries({ ...goodMembers, [name]: value })]),
        mentions: name,
      })),
    ),
    // Refused before anything reads it, wherever the depth is: in a field or in an unknown member.
    fc
      .tuple(fc.constantFrom(...names), fc.boolean(), nestedJson(1), extras)
      .map(([name, unknownMember, nested, extra]) => ({
        flaw: `${unknownMember ? 'an unknown member' : name} nesting the body ${nested.levels} deep`,
        body: membersText([
          ...extra,
          ...Object.entries({ ...goodMembers, [unknownMember ? `${name}_nested` : name]: nested.text }),
        ]),
        message: JSON_TOO_DEEP_MESSAGE,
      })),
  ];
  if (required.length > 0) {
    flaws.push(
      fc.tuple(fc.constantFrom(...required), extras).map(([name, extra]) => {
        const { [name]: _missing, ...rest } = goodMembers;
        return { flaw: `no ${name}`, body: membersText([...extra, ...Object.entries(rest)]), mentions: name };
      }),
    );
  }
  return fc.oneof(...flaws);
}

/** The generator of an API route: its inputs' flaws plus the flaws every API route has. */
function apiCases(route: Route, endpoint: ApiEndpoint): fc.Arbitrary<Case> {
  const goodPath = Object.fromEntries(
    Object.entries(endpoint.path ?? {}).map(([name, parameter]) => [name, parameter.good]),
  );
  const goodQuery = Object.entries(endpoint.goodQuery ?? {});
  const goodBody = endpoint.body
    ? objectText(Object.fromEntries(Object.entries(endpoint.body).map(([name, field]) => [name, field.good])))
    : undefined;
  const request = (
    path: Record<string, string>,
    query: [string, string][],
    body: string | undefined = goodBody,
  ): BadRequest => ({
    method: route.method,
    url: `${urlOf(route.path, path)}${queryString(query)}`,
    headers: {
      'x-api-key': world.apiKey,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body,
  });
  const valid = request(goodPath, goodQuery);
  const rejected = (flaw: string, bad: BadRequest, status: number, details: Partial<Case> = {}): Case => ({
    flaw,
    request: bad,
    status,
    protocol: 'message',
    ...details,
  });

  const flaws: fc.Arbitrary<Case>[] = [
    ...requestFlaws(route, valid),
    badApiKeyHeaders().map(({ flaw, headers }) => {
      const { 'x-api-key': _valid, ...others } = valid.headers;
      return rejected(flaw, { ...valid, headers: { ...others, ...headers } }, 401, { message: UNAUTHORIZED });
    }),
  ];
  for (const [name, parameter] of Object.entries(endpoint.path ?? {})) {
    flaws.push(
      parameter.bad.map((text) =>
        rejected(
          `path ${name} ${JSON.stringify(text).slice(0, 100)}`,
          request({ ...goodPath, [name]: segment(text) }, goodQuery),
          400,
          { mentions: `'${name}'` },
        ),
      ),
    );
    if (parameter.unknown) {
      flaws.push(
        parameter.unknown.map((text) =>
          rejected(
            `unknown ${name} ${text}`,
            request({ ...goodPath, [name]: segment(text) }, goodQuery),
            404,
          ),
        ),
      );
    }
  }
  const knownQuery = Object.keys(endpoint.query ?? {});
  for (const [name, parameter] of Object.entries(endpoint.query ?? {})) {
    flaws.push(
      fc
        .tuple(parameter.bad, fc.boolean(), unknownParameters(knownQuery))
        .map(([value, repeated, unknown]) => {
          const rest = goodQuery.filter(([other]) => other !== name);
          const before: [string, string][] =
            repeated && parameter.good !== undefined ? [[name, parameter.good]] : [];
          return rejected(
            `query ${name}=${JSON.stringify(value).slice(0, 100)}${before.length ? ' after a good one' : ''}`,
            request(goodPath, [...unknown, ...rest, ...before, [name, value]]),
            400,
            { mentions: `'${name}'` },
          );
        }),
    );
  }
  if (route.method === 'GET') {
    // Unknown query parameters are ignored; a read with them still answers, and writes nothing.
    flaws.push(
      unknownParameters(knownQuery)
        .filter((unknown) => unknown.length > 0)
        .map(
          (unknown): Case => ({
            flaw: 'unknown query parameters',
            request: request(goodPath, [...goodQuery, ...unknown]),
            status: 200,
            protocol: 'ignored',
          }),
        ),
    );
  }
  if (endpoint.body) {
    flaws.push(
      bodyFlaws(endpoint.body).map(({ flaw, body, mentions, message }) =>
        rejected(flaw, request(goodPath, goodQuery, body), 400, { mentions, message }),
      ),
    );
  }
  flaws.push(...(endpoint.extra?.(valid) ?? []));
  return fc.oneof(...flaws);
}

/** An id naming an existing resource; malformed ids are 400, unknown ones 404. */
const idPath = (good: number): PathParameter => ({
  good: String(good),
  bad: badIdText,
  unknown: unknownId.map(String),
});

const SKIP = { good: '0', bad: badIntegerText(0) };
const TAKE = { good: '10', bad: badIntegerText(1, MAX_PAGE_SIZE) };

const optionalBoolean: BodyField = { good: 'false', required: false, bad: notABoolean };
const sequenceIdField: BodyField = { good: '201', required: false, bad: badIdJson };
const bypassFlags = {
  bypassCooldownOtherSequences: optionalBoolean,
  bypassGlobalExcluded: optionalBoolean,
  takeoverUnapproved: optionalBoolean,
};

/** A contact of a push that fails validation on its own (it lands in `errors`, the push goes on). */
const invalidContact = fc.oneof(
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

const manyItems = (item: string, count: number) => `[${Array.from({ length: count }, () => item).join(',')}]`;

const badAddressList = fc.oneof(
  notAString,
  fc.constantFrom(
    '""',
    '","',
    '" , "',
    '"not-an-email"',
    '"ann@acme.com, junk"',
    '"ann@acme.com;bob@globex.io"',
  ),
  notAnEmail.filter((text) => text.trim() !== '').map((text) => json(`ann@acme.com,${text}`)),
  longerThan(10_000).map(json),
);

/** Subscriber URLs the SSRF check refuses even in the local stack (which allows loopback). */
const refusedUrl = fc.oneof(
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

const badWebhookUrl = fc.oneof(
  notAString,
  fc.constant('""'),
  longerThan(MAX_WEBHOOK_URL_LENGTH).map(json),
  refusedUrl.map(json),
);

const badEvents = fc.oneof(
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

function apiEndpoints(): Record<Exclude<RouteName, NonApiRoute>, ApiEndpoint> {
  const campaign = { id: idPath(101) };
  const webhook = { id: idPath(world.webhookId) };
  return {
    auth: {},
    'list-campaigns': {},
    'get-analytics-overview': {},
    'list-webhooks': {},
    'get-campaign': { path: campaign },
    'list-campaign-accounts': {
      path: campaign,
      query: { from: SKIP, take: TAKE },
      goodQuery: { from: '0', take: '10' },
    },
    'list-campaign-contacts': {
      path: campaign,
      query: { skip: SKIP, take: TAKE, status: { good: 'scheduled', bad: badStatusText } },
      goodQuery: { status: 'scheduled' },
    },
    'list-campaign-messages': { path: campaign, query: { skip: SKIP, take: TAKE } },
    'push-raw-contacts': {
      path: campaign,
      body: {
        contacts: {
          good: json([{ email: 'new.contact@fresh-example.com', variables: { opener: 'Hi' } }]),
          required: true,
          bad: fc.oneof(
            fc.constantFrom('"ann@acme.com"', '{}', 'null', '1', 'true', json({ email: 'ann@acme.com' })),
            fc
              .integer({ min: MAX_CONTACTS_PER_REQUEST + 1, max: MAX_CONTACTS_PER_REQUEST + 50 })
              .map((count) => manyItems('{"email":"bulk@fresh-example.com"}', count)),
          ),
        },
        triggerIntake: optionalBoolean,
        skipIneligible: { ...optionalBoolean, good: 'true' },
        ...bypassFlags,
        sequenceId: sequenceIdField,
      },
      extra: (valid) => {
        const push = (body: unknown, headers: Record<string, string> = {}) => ({
          ...valid,
          headers: { ...valid.headers, ...headers },
          body: typeof body === 'string' ? body : json(body),
        });
        return [
          fc.constantFrom(203, 999_999).map(
            (sequenceId): Case => ({
              flaw: `sequence ${sequenceId} is not one of the campaign's`,
              request: push({ contacts: [{ email: 'seq@fresh-example.com' }], sequenceId }),
              status: 400,
              protocol: 'message',
              mentions: "'sequenceId'",
            }),
          ),
          fc
            .oneof(
              fc.constant(''),
              longerThan(255).map((key) => key.replace(/[^\x21-\x7e]/g, 'k')),
            )
            .map(
              (key): Case => ({
                flaw: `an Idempotency-Key of ${key.length} characters`,
                request: push({ contacts: [] }, { 'idempotency-key': key }),
                status: 400,
                protocol: 'message',
                mentions: 'Idempotency-Key',
              }),
            ),
          fc.constant<Case>({
            flaw: 'an Idempotency-Key used before with another body',
            request: push(
              { contacts: [{ email: 'other@fresh-example.com' }] },
              {
                'idempotency-key': world.usedIdempotencyKey,
              },
            ),
            status: 422,
            protocol: 'message',
          }),
          fc.constant<Case>({
            flaw: 'an Idempotency-Key whose request is still running',
            request: push(RUNNING_PUSH, { 'idempotency-key': world.runningIdempotencyKey }),
            status: 409,
            protocol: 'message',
          }),
          fc.tuple(unknownId, fc.stringMatching(/^[\x21-\x7e]{1,64}$/)).map(
            ([id, key]): Case => ({
              flaw: `an unknown campaign ${id} under a fresh Idempotency-Key`,
              request: {
                ...push(
                  { contacts: [{ email: 'x@fresh-example.com' }] },
                  { 'idempotency-key': `fresh-${key}` },
                ),
                url: `${API_PREFIX}/campaigns/${id}/raw/contacts`,
              },
              status: 404,
              protocol: 'message',
            }),
          ),
          // Deep in a contact's variables (the body, contacts, the contact and variables are four levels):
          // the whole push is refused before any contact is read.
          nestedJson(4).map(
            (nested): Case => ({
              flaw: `variables nesting the body ${nested.levels} deep`,
              request: push(
                `{"contacts":[{"email":"deep@fresh-example.com","variables":{"v":${nested.text}}}]}`,
              ),
              status: 400,
              protocol: 'message',
              message: JSON_TOO_DEEP_MESSAGE,
            }),
          ),
          // Each contact is validated on its own: a push of only invalid contacts answers 200 with all of them in `errors`.
          fc.array(invalidContact, { minLength: 1, maxLength: 5 }).map(
            (contacts): Case => ({
              flaw: `only invalid contacts: ${contacts.join(',').slice(0, 200)}`,
              request: push(`{"contacts":[${contacts.join(',')}]}`),
              status: 200,
              protocol: 'ignored',
              ignoredBody: (body) => {
                expect(body).toMatchObject({ created: 0, updated: 0, skipped: 0, assignmentIds: [] });
                expect(body.errors).toHaveLength(contacts.length);
              },
            }),
          ),
        ];
      },
    },
    'check-eligibility': {
      path: campaign,
      body: {
        emails: {
          good: json(['ann@acme.com', 'fresh@fresh-example.com']),
          required: true,
          bad: fc.oneof(
            fc.constantFrom('"ann@acme.com"', '{}', 'null', '1', '[1]', '[null]', '[["ann@acme.com"]]'),
            fc
              .tuple(fc.array(fc.emailAddress(), { maxLength: 3 }), notAnEmail)
              .map(([good, bad]) => json([...good, bad])),
            fc
              .integer({ min: MAX_CONTACTS_PER_REQUEST + 1, max: MAX_CONTACTS_PER_REQUEST + 50 })
              .map((count) => manyItems('"bulk@fresh-example.com"', count)),
          ),
        },
        ...bypassFlags,
        sequenceId: sequenceIdField,
      },
      extra: (valid) => [
        fc.constantFrom(203, 999_999).map(
          (sequenceId): Case => ({
            flaw: `sequence ${sequenceId} is not one of the campaign's`,
            request: { ...valid, body: json({ emails: ['ann@acme.com'], sequenceId }) },
            status: 400,
            protocol: 'message',
            mentions: "'sequenceId'",
          }),
        ),
      ],
    },
    'reply-to-assignment': {
      path: { id: idPath(501) },
      body: {
        body: {
          good: json('Thanks, <b>talk soon</b>'),
          required: true,
          bad: fc.oneof(notAString, fc.constant('""'), longerThan(MAX_REPLY_BODY).map(json)),
        },
        plain_text: optionalBoolean,
        to: { good: json('ann@acme.com'), required: false, bad: badAddressList },
        cc: { good: json('bob@globex.io'), required: false, bad: badAddressList },
        bcc: { good: json('cy@initech.com'), required: false, bad: badAddressList },
      },
      extra: (valid) => [
        fc.constantFrom('to', 'cc', 'bcc').map(
          (field): Case => ({
            flaw: `${MAX_RECIPIENTS + 1} recipients in ${field}`,
            request: {
              ...valid,
              body: json({
                body: 'Hi',
                [field]: Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `r${i}@fresh-example.com`).join(
                  ',',
                ),
              }),
            },
            status: 400,
            protocol: 'message',
            mentions: "'to'",
          }),
        ),
        // Within 100,000 characters, but beyond what the stored HTML may take (after plain_text's escaping).
        fc
          .constantFrom(
            { text: '"', plainText: true },
            { text: '&', plainText: true },
            { text: '<', plainText: true },
            { text: '𐀀', plainText: false },
          )
          .map(
            ({ text, plainText }): Case => ({
              flaw: `${MAX_REPLY_BODY} × ${text}${plainText ? ' as plain text' : ''}`,
              request: { ...valid, body: json({ body: text.repeat(MAX_REPLY_BODY), plain_text: plainText }) },
              status: 400,
              protocol: 'message',
              mentions: "'body'",
            }),
          ),
        fc.constant<Case>({
          flaw: 'no `to` for a contact without an email address',
          request: { ...valid, url: `${API_PREFIX}/assignments/504/reply`, body: json({ body: 'Hi' }) },
          status: 400,
          protocol: 'message',
          mentions: "'to'",
        }),
      ],
    },
    'lookup-account': {
      query: {
        domain: { good: 'acme.com', bad: badDomainText },
        id: { good: '301', bad: badIdText },
        icpId: { good: '101', bad: badIdText },
      },
      goodQuery: { domain: 'acme.com' },
      extra: (valid) => {
        const lookup = (pairs: [string, string][]) => ({
          ...valid,
          url: `${API_PREFIX}/accounts${queryString(pairs)}`,
        });
        return [
          unknownParameters(['domain', 'id']).map(
            (unknown): Case => ({
              flaw: 'neither domain nor id',
              request: lookup([...unknown, ['icpId', '101']]),
              status: 400,
              protocol: 'message',
              mentions: "'domain'",
            }),
          ),
          fc
            .oneof(
              fc
                .stringMatching(/^[a-z][a-z0-9]{0,20}$/)
                .map((label): [string, string][] => [['domain', `${label}.unknown-example.com`]]),
              unknownId.map((id): [string, string][] => [['id', String(id)]]),
              unknownId.map((id): [string, string][] => [
                ['domain', 'acme.com'],
                ['icpId', String(id)],
              ]),
              fc.constant<[string, string][]>([
                ['domain', 'acme.com'],
                ['id', '302'],
              ]),
            )
            .map(
              (pairs): Case => ({
                flaw: `nothing matches ${new URLSearchParams(pairs).toString()}`,
                request: lookup(pairs),
                status: 404,
                protocol: 'message',
              }),
            ),
        ];
      },
    },
    'exclude-account': {
      body: {
        company_url: {
          good: json('https://www.example.org/about'),
          required: true,
          bad: fc.oneof(notAString, fc.constant('""'), badDomainText.map(json), longerThan(2048).map(json)),
        },
        company_name: {
          good: json('Example'),
          required: false,
          bad: fc.oneof(notAString, longerThan(500).map(json)),
        },
        company_linkedin_url: {
          good: json('https://linkedin.com/company/example'),
          required: false,
          bad: fc.oneof(notAString, longerThan(2048).map(json)),
        },
      },
    },
    'search-jobs': {
      // A domain names a search, not a resource: an unknown one is an empty page, not 404.
      path: { domain: { good: 'acme.com', bad: fc.oneof(badDomainText, asciiLongerThan(2048)) } },
      query: {
        cursor: { bad: badIdText },
        since: { good: '2026-01-01T00:00:00Z', bad: badDateTimeText },
        take: { good: '10', bad: badIntegerText(1, MAX_JOBS_PAGE) },
      },
      extra: (valid) => [
        // A well-formed cursor that is no position of this domain's search is 400 (docs/decisions.md).
        unknownId.map(
          (cursor): Case => ({
            flaw: `cursor ${cursor} of no search`,
            request: { ...valid, url: `${valid.url}?cursor=${cursor}` },
            status: 400,
            protocol: 'message',
            mentions: "'cursor'",
          }),
        ),
      ],
    },
    'create-webhook': {
      body: {
        url: { good: json(world.receiverUrl), required: true, bad: badWebhookUrl },
        events: { good: json(['first_touch']), required: true, bad: badEvents },
      },
      extra: (valid) => [
        fc.constant<Case>({
          flaw: `an organization with ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks already`,
          request: { ...valid, headers: { ...valid.headers, 'x-api-key': world.fullApiKey } },
          status: 409,
          protocol: 'message',
        }),
      ],
    },
    'get-webhook': { path: webhook },
    'update-webhook': {
      path: webhook,
      body: {
        url: { good: json(world.receiverUrl), required: false, bad: badWebhookUrl },
        events: { good: json(['first_touch']), required: false, bad: badEvents },
        enabled: { good: 'true', required: false, bad: notABoolean },
      },
      extra: (valid) => [
        unknownParameters(['url', 'events', 'enabled']).map(
          (extra): Case => ({
            flaw: 'none of url, events, enabled',
            request: {
              ...valid,
              body: objectText(Object.fromEntries(extra.map(([name, value]) => [name, json(value)]))),
            },
            status: 400,
            protocol: 'message',
          }),
        ),
      ],
    },
    'delete-webhook': { path: webhook },
    'test-webhook': { path: webhook },
    'rotate-webhook-secret': { path: webhook },
    'list-webhook-deliveries': {
      path: webhook,
      query: { take: TAKE, cursor: { bad: badIdText } },
    },
    'redeliver-webhook-delivery': {
      path: { id: idPath(world.webhookId), deliveryId: idPath(world.deliveryId) },
      extra: (valid) => [
        fc.constant<Case>({
          flaw: 'a delivery whose event is no longer kept',
          request: {
            ...valid,
            url: urlOf('/public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
              id: String(world.webhookId),
              deliveryId: String(world.expiredDeliveryId),
            }),
          },
          status: 409,
          protocol: 'message',
        }),
      ],
    },
  };
}

// ---------------------------------------------------------------------------
// /mcp: HTTP errors are `{message}`; what reaches the MCP transport is JSON-RPC.

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const JSONRPC_PARSE_ERROR = -32700;
/** A batch (any JSON array) is refused as a whole: protocol 2025-06-18 has none. */
const JSONRPC_INVALID_REQUEST = -32600;
const JSONRPC_METHOD_NOT_FOUND = -32601;
/**
 * The SDK (1.32) answers a request whose params fail its own schema with
 * -32603 (internal error) and the zod issues, where JSON-RPC says -32602; both
 * are accepted here, and the report says so.
 */
const JSONRPC_INVALID_PARAMS = [-32602, -32603];

interface ToolArguments {
  good: Record<string, string>;
  bad: Record<string, fc.Arbitrary<string>>;
}

/** The tools that take arguments; the two without ignore unknown ones (their input schemas are open objects). */
const TOOLS: Record<string, ToolArguments> = {
  lookup_account: {
    good: { domain: json('acme.com') },
    bad: {
      domain: fc.oneof(notAString, badDomainText.map(json), longerThan(2048).map(json)),
      id: fc.oneof(badIdJson, unknownId.map(json)),
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
    },
  },
  get_campaign: {
    good: { campaign_id: '101' },
    bad: { campaign_id: fc.oneof(badIdJson, unknownId.map(json)) },
  },
  list_campaign_accounts: {
    good: { campaign_id: '101' },
    bad: {
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
      from: badIntegerJson(0),
      take: badIntegerJson(1, MAX_PAGE_SIZE),
    },
  },
  list_campaign_contacts: {
    good: { campaign_id: '101' },
    bad: {
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
      skip: badIntegerJson(0),
      take: badIntegerJson(1, MAX_PAGE_SIZE),
      status: fc.oneof(notAString, badStatusText.map(json)),
    },
  },
  search_jobs: {
    good: { domain: json('acme.com') },
    bad: {
      domain: fc.oneof(notAString, badDomainText.map(json), longerThan(2048).map(json)),
      since: fc.oneof(notAString, badDateTimeText.map(json)),
      cursor: fc.oneof(badIdJson, unknownId.map(json)),
      take: badIntegerJson(1, MAX_JOBS_PAGE),
    },
  },
  check_eligibility: {
    good: { campaign_id: '101', emails: json(['ann@acme.com']) },
    bad: {
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
      emails: fc.oneof(
        fc.constantFrom('"ann@acme.com"', '{}', 'null', '[1]'),
        notAnEmail.map((email) => json(['ann@acme.com', email])),
        fc.constant(manyItems('"bulk@fresh-example.com"', MAX_CONTACTS_PER_REQUEST + 1)),
      ),
      bypassCooldownOtherSequences: notABoolean,
      bypassGlobalExcluded: notABoolean,
      takeoverUnapproved: notABoolean,
      sequenceId: fc.oneof(badIdJson, fc.constantFrom('203', '999999')),
    },
  },
};

function isJsonArray(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

const rpcId = fc.oneof(fc.integer({ min: 1, max: 1e9 }), fc.stringMatching(/^[a-z0-9-]{1,16}$/));

function mcpCases(route: Route): fc.Arbitrary<Case> {
  const rpc = (body: string, headers: Record<string, string> = {}): BadRequest => ({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${world.accessToken}`, ...headers },
    body,
  });
  const call = (id: number | string, name: string, args: string) =>
    `{"jsonrpc":"2.0","id":${json(id)},"method":"tools/call","params":{"name":${json(name)},"arguments":${args}}}`;
  const toolNames = Object.keys(TOOLS);
  return fc.oneof(
    ...requestFlaws(route, rpc('{}')),
    // HTTP-level refusals, before JSON-RPC: `{message}` with the OAuth challenge or the allowed method.
    fc
      .oneof(
        fc.constant<Record<string, string>>({}),
        fc
          .constantFrom('Bearer', 'Bearer ', 'Basic abc', 'bearer', `Token ${'x'.repeat(10)}`)
          .map((value) => ({ authorization: value })),
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((secret) => ({ authorization: `Bearer mat_${secret}` })),
        fc
          .string({
            unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
            minLength: 1,
            maxLength: 80,
          })
          .map((token) => ({ authorization: `Bearer ${token}` })),
      )
      .map(
        (headers): Case => ({
          flaw: `authorization ${JSON.stringify(headers)}`,
          request: {
            method: 'POST',
            url: '/mcp',
            headers: { ...MCP_HEADERS, ...headers },
            body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          },
          status: 401,
          protocol: 'message',
          header: {
            name: 'www-authenticate',
            value: /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/,
          },
        }),
      ),
    fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS').map(
      (method): Case => ({
        flaw: `method ${method}`,
        request: { ...rpc(''), method, body: method === 'GET' ? undefined : '{}' },
        status: 405,
        protocol: 'message',
        header: { name: 'allow', value: /^POST$/ },
      }),
    ),
    // What the transport refuses: not JSON, not a JSON-RPC message, a batch, the wrong media types or
    // protocol version.
    fc
      .oneof(
        notAJsonObject,
        fc.constant(''),
        fc.constantFrom(
          '{}',
          '{"jsonrpc":"2.0"}',
          '{"jsonrpc":"2.0","id":1}',
          '{"jsonrpc":"1.0","id":1,"method":"ping"}',
          '{"id":1,"method":"ping"}',
          '{"jsonrpc":"2.0","id":null,"method":"ping"}',
          '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
          '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
          '{"jsonrpc":"2.0","method":5,"id":1}',
          '{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}',
          '{"jsonrpc":"2.0","id":1,"method":"initialize","params":5}',
          '[{"jsonrpc":"2.0","id":1,"method":"ping"},5]',
        ),
        fc
          .dictionary(
            unicode(10, 1).filter((name) => name !== 'jsonrpc'),
            fc.jsonValue({ maxDepth: 1 }),
            { maxKeys: 4 },
          )
          .map(json),
      )
      .map(
        (body): Case => ({
          flaw: `not a JSON-RPC message: ${body.slice(0, 100)}`,
          request: rpc(body),
          status: 400,
          protocol: 'jsonrpc',
          codes: [isJsonArray(body) ? JSONRPC_INVALID_REQUEST : JSONRPC_PARSE_ERROR],
        }),
      ),
    fc
      .constantFrom<{ flaw: string; headers: Record<string, string>; status: number }>(
        { flaw: 'accept without text/event-stream', headers: { accept: 'application/json' }, status: 406 },
        { flaw: 'accept text/html', headers: { accept: 'text/html' }, status: 406 },
        { flaw: 'content-type text/plain', headers: { 'content-type': 'text/plain' }, status: 415 },
        {
          flaw: 'content-type form',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          status: 415,
        },
        {
          flaw: 'an unknown protocol version',
          headers: { 'mcp-protocol-version': '1999-01-01' },
          status: 400,
        },
      )
      .map(
        ({ flaw, headers, status }): Case => ({
          flaw,
          request: rpc('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', headers),
          status,
          protocol: 'jsonrpc',
        }),
      ),
    // Well-formed JSON-RPC the server has no answer for.
    fc
      .tuple(
        rpcId,
        fc.oneof(
          fc.constantFrom(
            'tools/delete',
            'Tools/List',
            'resources/list',
            'prompts/list',
            'completion/complete',
            'admin',
          ),
          fc.stringMatching(/^x-[a-z/]{1,20}$/),
        ),
      )
      .map(
        ([id, method]): Case => ({
          flaw: `method ${method}`,
          request: rpc(json({ jsonrpc: '2.0', id, method })),
          status: 200,
          protocol: 'jsonrpc',
          codes: [JSONRPC_METHOD_NOT_FOUND],
          rpcId: id,
        }),
      ),
    fc
      .tuple(
        rpcId,
        fc.constantFrom(
          '',
          ',"params":5',
          ',"params":{}',
          ',"params":{"name":5}',
          ',"params":{"name":"get_campaign","arguments":5}',
          ',"params":{"name":"get_campaign","arguments":"x"}',
        ),
      )
      .map(
        ([id, params]): Case => ({
          flaw: `tools/call with params ${params}`,
          request: rpc(`{"jsonrpc":"2.0","id":${json(id)},"method":"tools/call"${params}}`),
          // A params value that is no object at all is not a valid JSON-RPC request (the transport refuses it).
          status: params === ',"params":5' ? 400 : 200,
          protocol: 'jsonrpc',
          codes: params === ',"params":5' ? [JSONRPC_PARSE_ERROR] : JSONRPC_INVALID_PARAMS,
          rpcId: params === ',"params":5' ? undefined : id,
        }),
      ),
    // Tool errors: an unknown tool, a missing or bad argument, something that does not exist.
    fc
      .tuple(
        rpcId,
        fc
          .oneof(fc.constantFrom('drop_tables', 'LIST_CAMPAIGNS', ''), fc.stringMatching(/^[a-z_]{1,30}$/))
          .filter(
            (name) =>
              !toolNames.includes(name) && name !== 'list_campaigns' && name !== 'get_analytics_overview',
          ),
      )
      .map(
        ([id, name]): Case => ({
          flaw: `unknown tool ${name}`,
          request: rpc(call(id, name, '{}')),
          status: 200,
          protocol: 'toolError',
          rpcId: id,
        }),
      ),
    fc
      .tuple(rpcId, fc.constantFrom(...toolNames))
      .chain(([id, name]) => {
        const tool = TOOLS[name]!;
        const required = Object.keys(tool.good);
        return fc.oneof(
          fc.constantFrom(...required).map((missing) => {
            const { [missing]: _gone, ...rest } = tool.good;
            return { flaw: `${name} without ${missing}`, request: rpc(call(id, name, objectText(rest))), id };
          }),
          fc.constantFrom(...Object.keys(tool.bad)).chain((argument) =>
            tool.bad[argument]!.map((value) => ({
              flaw: `${name} with ${argument}=${value.slice(0, 100)}`,
              request: rpc(call(id, name, objectText({ ...tool.good, [argument]: value }))),
              id,
            })),
          ),
        );
      })
      .map(
        ({ flaw, request, id }): Case => ({ flaw, request, status: 200, protocol: 'toolError', rpcId: id }),
      ),
  );
}

// ---------------------------------------------------------------------------
// The OAuth endpoints: RFC 6749 errors (JSON from the token endpoint; an HTML
// page or an error redirect from the authorization endpoint).

const formBody = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();

/** One bad parameter of an otherwise authenticated token request, and the error code it earns. */
interface GrantFlaw {
  flaw: string;
  parameters: Record<string, string>;
  error: string;
}

function tokenCases(route: Route): fc.Arbitrary<Case> {
  const { clientId, clientSecret } = world.client;
  const token = (
    parameters: Record<string, string>,
    asJson: boolean,
    authorization?: string,
  ): BadRequest => ({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': asJson ? 'application/json' : 'application/x-www-form-urlencoded',
      ...(authorization !== undefined && { authorization }),
    },
    body: asJson ? json(parameters) : formBody(parameters),
  });
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const refused = (flaw: string, request: BadRequest, status: number, error: string): Case => ({
    flaw,
    request,
    status,
    protocol: 'oauth',
    error,
  });
  const anyGrant = fc.record({
    grant_type: fc.constantFrom('client_credentials', 'authorization_code', 'password'),
  });
  /** How a client that exists authenticates: HTTP Basic or the body. */
  const authenticated = fc
    .boolean()
    .map((inBody): { extra: Record<string, string>; authorization?: string } => ({
      extra: inBody ? { client_id: clientId, client_secret: clientSecret } : {},
      authorization: inBody ? undefined : basic(clientId, clientSecret),
    }));
  const secret = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);
  return fc.oneof(
    ...requestFlaws(route, token({ grant_type: 'client_credentials' }, false, basic(clientId, clientSecret))),
    // Client authentication fails first, whatever else is wrong: 401 invalid_client.
    fc
      .tuple(
        anyGrant,
        fc.boolean(),
        fc.oneof(
          fc.constant({ flaw: 'no client credentials', body: {}, authorization: undefined }),
          fc.tuple(fc.stringMatching(/^mcp_[A-Za-z0-9_-]{16}$/), secret).map(([id, value]) => ({
            flaw: 'an unknown client',
            body: { client_id: id, client_secret: value },
            authorization: undefined,
          })),
          fc.tuple(unicode(40, 1), secret).map(([id, value]) => ({
            flaw: 'a junk client id',
            body: { client_id: id, client_secret: value },
            authorization: undefined,
          })),
          secret.map((value) => ({
            flaw: 'a wrong secret',
            body: { client_id: clientId, client_secret: value },
            authorization: undefined,
          })),
          fc.constant({
            flaw: 'a client id without its secret',
            body: { client_id: clientId },
            authorization: undefined,
          }),
          fc.constant({
            flaw: 'a revoked client',
            body: { client_id: world.revokedClientId, client_secret: clientSecret },
            authorization: undefined,
          }),
          secret.map((value) => ({
            flaw: 'Basic with a wrong secret',
            body: {},
            authorization: basic(clientId, value),
          })),
          fc
            .constantFrom(
              'Basic',
              'Basic !!!',
              'Basic bm9jb2xvbg==',
              `Basic ${Buffer.from('%E0:%').toString('base64')}`,
              'Bearer x',
            )
            .map((value) => ({ flaw: `authorization ${value}`, body: {}, authorization: value })),
        ),
      )
      .map(([grant, asJson, credentials]) =>
        refused(
          credentials.flaw,
          token(
            { ...grant, ...credentials.body } as Record<string, string>,
            asJson,
            credentials.authorization,
          ),
          401,
          'invalid_client',
        ),
      ),
    // An authenticated client with one bad grant parameter: 400 with the RFC's error code.
    fc
      .tuple(
        authenticated,
        fc.boolean(),
        fc.oneof(
          fc.constant<GrantFlaw>({ flaw: 'no grant_type', parameters: {}, error: 'invalid_request' }),
          unicode(40)
            .filter((value) => value !== 'client_credentials' && value !== 'authorization_code')
            .map(
              (value): GrantFlaw => ({
                flaw: `grant_type ${value}`,
                parameters: { grant_type: value },
                error: 'unsupported_grant_type',
              }),
            ),
          unicode(40)
            .filter((value) => value.split(' ').some((scope) => scope !== MCP_SCOPE))
            .map(
              (value): GrantFlaw => ({
                flaw: `scope ${value}`,
                parameters: { grant_type: 'client_credentials', scope: value },
                error: 'invalid_scope',
              }),
            ),
          fc
            .oneof(unicode(60), fc.constant('https://assistant.example/mcp'))
            .filter((value) => value !== `${stack.apiUrl}/mcp`)
            .map(
              (value): GrantFlaw => ({
                flaw: `resource ${value}`,
                parameters: { grant_type: 'client_credentials', resource: value },
                error: 'invalid_target',
              }),
            ),
          fc.constant<GrantFlaw>({
            flaw: 'a code grant without code',
            parameters: { grant_type: 'authorization_code' },
            error: 'invalid_request',
          }),
          fc.oneof(unicode(60, 1), fc.stringMatching(/^mac_[A-Za-z0-9_-]{43}$/)).map(
            (code): GrantFlaw => ({
              flaw: `code ${code}`,
              parameters: {
                grant_type: 'authorization_code',
                code,
                redirect_uri: REDIRECT_URI,
                code_verifier: 'v'.repeat(43),
              },
              error: 'invalid_grant',
            }),
          ),
        ),
      )
      .map(([client, asJson, grant]) =>
        refused(
          grant.flaw,
          token({ ...grant.parameters, ...client.extra }, asJson, client.authorization),
          400,
          grant.error,
        ),
      ),
    // A body the endpoint cannot read is no parameters at all: with Basic credentials, no grant_type.
    notAJsonObject.map((body) =>
      refused(
        'a JSON body that is no object',
        { ...token({}, true, basic(clientId, clientSecret)), body },
        400,
        'invalid_request',
      ),
    ),
    // Parameters of the wrong JSON type are ignored, so the grant type is missing.
    fc
      .constantFrom('5', 'null', 'true', '["client_credentials"]', '{"a":1}')
      .map((value) =>
        refused(
          `grant_type ${value}`,
          { ...token({}, true, basic(clientId, clientSecret)), body: `{"grant_type":${value}}` },
          400,
          'invalid_request',
        ),
      ),
  );
}

function authorizeCases(route: Route): fc.Arbitrary<Case> {
  const { clientId } = world.client;
  const submit = route.method === 'POST';
  const valid = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: 'c'.repeat(43),
    code_challenge_method: 'S256',
  };
  const authorize = (parameters: Record<string, string | undefined>): BadRequest => {
    const defined = Object.fromEntries(
      Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return submit
      ? {
          method: 'POST',
          url: '/oauth/authorize',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: formBody(defined),
        }
      : { method: 'GET', url: `/oauth/authorize${queryString(Object.entries(defined))}`, headers: {} };
  };
  const state = fc.option(unicode(40, 1), { nil: undefined });
  /** Redirected back with an RFC 6749 §4.1.2.1 error, the client's state and the issuer. */
  const redirected = (
    flaw: string,
    parameters: Record<string, string | undefined>,
    error: string,
    sent?: string,
  ): Case => ({
    flaw,
    request: authorize({ ...parameters, state: sent }),
    status: 302,
    protocol: 'redirect',
    error,
    state: sent,
  });
  const flaws: fc.Arbitrary<Case>[] = [
    ...requestFlaws(route, authorize(valid)),
    // An unknown client or redirect URI: an error page, never a redirect.
    fc
      .oneof(
        fc.constant<string | undefined>(undefined),
        unicode(40),
        fc.stringMatching(/^mcp_[A-Za-z0-9_-]{16}$/),
        fc.constant(world.revokedClientId),
      )
      .map(
        (client): Case => ({
          flaw: `client ${client}`,
          request: authorize({ ...valid, client_id: client }),
          status: 400,
          protocol: 'html',
        }),
      ),
    fc
      .oneof(
        fc.constant<string | undefined>(undefined),
        fc.constantFrom(
          '',
          REDIRECT_URI.toUpperCase(),
          `${REDIRECT_URI}/evil`,
          `${REDIRECT_URI}?x=1`,
          'https://evil.example/callback',
        ),
        unicode(60),
      )
      .filter((uri) => uri !== REDIRECT_URI)
      .map(
        (uri): Case => ({
          flaw: `redirect_uri ${uri}`,
          request: authorize({ ...valid, redirect_uri: uri }),
          status: 400,
          protocol: 'html',
        }),
      ),
    fc
      .tuple(
        fc.option(
          unicode(20).filter((type) => type !== 'code'),
          { nil: undefined },
        ),
        state,
      )
      .map(([type, sent]) =>
        redirected(
          `response_type ${type}`,
          { ...valid, response_type: type },
          'unsupported_response_type',
          sent,
        ),
      ),
    fc
      .tuple(
        fc.oneof(
          fc.constant({ code_challenge: undefined }),
          fc.constant({ code_challenge: '' }),
          fc.constant({ code_challenge_method: undefined }),
          unicode(10)
            .filter((method) => method !== 'S256')
            .map((method) => ({ code_challenge_method: method })),
        ),
        state,
      )
      .map(([change, sent]) =>
        redirected(`PKCE ${JSON.stringify(change)}`, { ...valid, ...change }, 'invalid_request', sent),
      ),
    fc
      .tuple(
        unicode(60).filter((resource) => resource !== `${stack.apiUrl}/mcp`),
        state,
      )
      .map(([resource, sent]) =>
        redirected(`resource ${resource}`, { ...valid, resource }, 'invalid_target', sent),
      ),
    fc
      .tuple(
        unicode(40).filter((scope) => scope.split(' ').some((part) => part !== MCP_SCOPE)),
        state,
      )
      .map(([scope, sent]) => redirected(`scope ${scope}`, { ...valid, scope }, 'invalid_scope', sent)),
  ];
  if (submit) {
    flaws.push(
      fc
        .tuple(
          fc.option(
            unicode(20).filter((decision) => decision !== 'approve'),
            { nil: undefined },
          ),
          state,
        )
        .map(([decision, sent]) =>
          redirected(
            `decision ${decision}`,
            { ...valid, decision, api_key: world.apiKey },
            'access_denied',
            sent,
          ),
        ),
      // Approval needs an API key of the client's organization; anything else shows the form again (401).
      fc
        .oneof(
          fc.constant<string | undefined>(undefined),
          unicode(60),
          fc.constant(world.revokedApiKey),
          fc.constant(world.otherApiKey),
          fc.constant(`${world.orgId}.${'A'.repeat(43)}`),
        )
        .map(
          (key): Case => ({
            flaw: `approve with key ${key}`,
            request: authorize({ ...valid, decision: 'approve', api_key: key }),
            status: 401,
            protocol: 'html',
          }),
        ),
      notAJsonObject.map(
        (body): Case => ({
          flaw: 'a JSON body that is no object',
          request: {
            method: 'POST',
            url: '/oauth/authorize',
            headers: { 'content-type': 'application/json' },
            body,
          },
          status: 400,
          protocol: 'html',
        }),
      ),
    );
  }
  return fc.oneof(...flaws);
}

/** The media types of the unauthenticated documents. */
const JSON_TYPE = /^application\/json/;
const HTML_TYPE = /^text\/html/;
const SCRIPT_OR_STYLE_TYPE = /^text\/(javascript|css)/;

/**
 * The unauthenticated documents (OAuth metadata, the OpenAPI document, the
 * reference page and its assets): nothing to get wrong but the method, the
 * size and, for the assets, the name; query parameters are ignored.
 */
function documentCases(contentType: RegExp, parameters: Record<string, string> = {}) {
  return (route: Route): fc.Arbitrary<Case> => {
    const valid: BadRequest = { method: 'GET', url: urlOf(route.path, parameters), headers: {} };
    return fc.oneof(
      ...requestFlaws(route, valid),
      unknownParameters([]).map(
        (unknown): Case => ({
          flaw: 'query parameters',
          request: { ...valid, url: `${valid.url}${queryString(unknown)}` },
          status: 200,
          protocol: 'ignored',
          contentType,
        }),
      ),
    );
  };
}

/** `/docs/{asset}`: any name but the reference page's own files is 404, traversal included. */
function assetCases(route: Route): fc.Arbitrary<Case> {
  return fc.oneof(
    documentCases(SCRIPT_OR_STYLE_TYPE, { asset: REFERENCE_ASSETS[0]! })(route),
    fc
      .oneof(
        fc.constantFrom(
          '../package.json',
          '..%2Fpackage.json',
          'swagger-ui-bundle.js.map',
          'SWAGGER-UI.CSS',
          'swagger-ui.css ',
          'index.html',
          'swagger-ui-dist/swagger-ui.css',
          '%00',
          '/etc/passwd',
        ),
        unicode(60, 1),
        asciiLongerThan(1000),
      )
      .filter((name) => !REFERENCE_ASSETS.includes(name) && name !== '.' && name !== '..')
      .map(
        (name): Case => ({
          flaw: `asset ${JSON.stringify(name).slice(0, 100)}`,
          request: { method: 'GET', url: urlOf(route.path, { asset: segment(name) }), headers: {} },
          status: 404,
          protocol: 'message',
        }),
      ),
  );
}

type NonApiRoute =
  | 'mcp'
  | 'oauth-token'
  | 'oauth-authorize'
  | 'oauth-authorize-submit'
  | 'oauth-protected-resource'
  | 'oauth-protected-resource-mcp'
  | 'oauth-authorization-server'
  | 'openapi'
  | 'docs'
  | 'docs-asset';

/** One generator per route of the manifest; a route missing here is a type error and fails the first test. */
function generators(): Record<RouteName, (route: Route) => fc.Arbitrary<Case>> {
  const api = apiEndpoints();
  const forApi = Object.fromEntries(
    Object.entries(api).map(([name, endpoint]) => [name, (route: Route) => apiCases(route, endpoint)]),
  ) as Record<keyof typeof api, (route: Route) => fc.Arbitrary<Case>>;
  return {
    ...forApi,
    mcp: mcpCases,
    'oauth-token': tokenCases,
    'oauth-authorize': authorizeCases,
    'oauth-authorize-submit': authorizeCases,
    'oauth-protected-resource': documentCases(JSON_TYPE),
    'oauth-protected-resource-mcp': documentCases(JSON_TYPE),
    'oauth-authorization-server': documentCases(JSON_TYPE),
    openapi: documentCases(JSON_TYPE),
    docs: documentCases(HTML_TYPE),
    'docs-asset': assetCases,
  };
}

// ---------------------------------------------------------------------------

describe('bad input to every route', () => {
  it('has a bad-input generator for every route of the manifest', () => {
    const covered = generators();
    expect(routes.filter((route) => !(route.name in covered)).map((route) => route.name)).toEqual([]);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path} (${route.name})`, route] as const))(
    '%s: never a 5xx, the right 4xx in its protocol, nothing written',
    async (_title, route) => {
      const generator = generators()[route.name];
      expect(generator, `no bad-input generator for ${route.name}`).toBeDefined();
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(generator(route), async (c) => {
          runs += 1;
          const { result: answer, calls } = await countRequests(() => send(c.request));
          const context = `${c.flaw}\n${describeRequest(c.request)}\n→ ${answer.status} ${answer.text.slice(0, 500)}`;
          try {
            checkAnswer(c, answer);
            expect(unexpectedWrites(calls)).toEqual([]);
          } catch (error) {
            throw new Error(`${(error as Error).message}\n${context}`);
          }
        }),
        { numRuns: RUNS },
      );
      expect(runs).toBeGreaterThanOrEqual(RUNS);
    },
  );
});

/**
 * Two flaws the local gateway mishandles today (infra/local/gateway.ts, which
 * this work may not edit): a path segment that is not valid percent-encoding
 * (decodeURIComponent throws) and query parameters named like Object.prototype
 * members (repeated values are collected in a plain object). Both answer 500.
 * API Gateway answers neither with a 5xx, and the generators above leave them
 * out, so they are pinned here, on every route.
 */
describe('the local gateway', () => {
  /** A request each GET route answers with 200: its existing resources and the query it needs. */
  const readable = (route: Route): BadRequest => {
    const parameters: Record<string, string> = {
      id: route.path.includes('webhooks') ? String(world.webhookId) : '101',
      domain: 'acme.com',
      asset: REFERENCE_ASSETS[0]!,
    };
    return {
      method: 'GET',
      url: `${urlOf(route.path, parameters)}${route.name === 'lookup-account' ? '?domain=acme.com' : ''}`,
      headers: route.auth === 'apiKey' ? { 'x-api-key': world.apiKey } : {},
    };
  };

  it.each(['%', '%E0%A4%A', '%zz', '%ED%A0%80', '%C0%AF', '%FF'])(
    'answers a path parameter that is not valid percent-encoding (%s) with a 4xx {message} on every route',
    async (encoded) => {
      for (const route of routes.filter((candidate) => candidate.path.includes('{'))) {
        const request: BadRequest = {
          method: route.method === 'ANY' ? 'POST' : route.method,
          url: route.path.replace(/\{\w+\}/g, encoded),
          headers: { 'x-api-key': world.apiKey },
        };
        const answer = await send(request);
        expect([400, 404], `${describeRequest(request)} → ${answer.status}`).toContain(answer.status);
        checkAnswer(
          { flaw: 'malformed escape', request, status: answer.status, protocol: 'message' },
          answer,
        );
      }
    },
  );

  it('ignores query parameters named like Object.prototype members on every GET route', async () => {
    for (const route of routes.filter((candidate) => candidate.method === 'GET')) {
      const request = readable(route);
      const plain = await send(request);
      // The consent page needs its OAuth parameters (a 400 without them); every other route reads fine.
      expect(plain.status, describeRequest(request)).toBe(route.name === 'oauth-authorize' ? 400 : 200);
      const separator = request.url.includes('?') ? '&' : '?';
      const odd = {
        ...request,
        url: `${request.url}${separator}constructor=1&__proto__=2&toString=3&toString=4`,
      };
      expect((await send(odd)).status, describeRequest(odd)).toBe(plain.status);
    }
  });
});
