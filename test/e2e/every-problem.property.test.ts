import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { MAX_PROVIDER_API_KEY_LENGTH } from '#schemas/provider-connections.ts';
import { MAX_RECIPIENTS, MAX_REPLY_BODY } from '#schemas/replies.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '#schemas/webhooks.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { json, longerThan, membersText, notABoolean, notAString } from './bad-input/arbitraries.ts';
import { badAddressList, badEvents, badProvider, badProviderApiKey } from './bad-input/field-arbitraries.ts';

/**
 * Every problem of a request is reported, whichever stage checks it: bodies
 * with several independent bad fields (each bad in a way the request alone
 * shows, whatever the deployment or the data: a URL that is no absolute http(s)
 * URL, a reply too large once escaped, too many recipients beside a body of
 * the wrong type) are refused with 400, and every bad field is named in
 * `errors` and in `message`. A later stage (the URL check, the reply's size)
 * used to run only once the schema passed, so its problem hid behind the
 * others' (`{"url": "nope", "events": ["bad"]}` named only `events[0]`).
 */

const RUNS = 60;

let stack: LocalStack;
let apiKey: string;
let webhookId: number;

beforeAll(async () => {
  stack = await startTestStack();
  const { orgId } = await createOrganization('Many Problems Inc');
  ({ apiKey } = await createApiKey(orgId));
  await importFor(orgId, smallDocument());
  // Loopback over http: the local stack's policy allows it, and nothing needs to listen.
  const created = await apiClient(stack, apiKey).post('/webhooks', {
    url: 'http://127.0.0.1:9/hook',
    events: ['first_touch'],
  });
  webhookId = created.body.id as number;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** URLs that no deployment accepts, as the request alone shows (JSON texts). */
const badUrl = (maxLength: number) =>
  fc.oneof(
    notAString,
    fc.constant('""'),
    longerThan(maxLength).map((text) => json(`https://${text}.example`)),
    fc
      .constantFrom(
        'nope',
        '/relative',
        '//hooks.example.com/',
        'hooks.example.com',
        'ftp://hooks.example.com/',
        'javascript:alert(1)',
        'data:text/plain,hi',
        'file:///etc/passwd',
        'mailto:a@b.com',
        'https://user:pw@hooks.example.com/',
        'https://user@hooks.example.com/',
        'https://',
      )
      .map(json),
  );

/** One route's fields: a valid value and bad ones (JSON texts), and whole-body flaws beyond them. */
interface Route {
  method: string;
  path: () => string;
  fields: Record<string, { good?: string; bad: fc.Arbitrary<string> }>;
}

const routes: Record<string, Route> = {
  'create-webhook': {
    method: 'POST',
    path: () => '/webhooks',
    fields: {
      url: { good: json('https://hooks.example.com/b'), bad: badUrl(MAX_WEBHOOK_URL_LENGTH) },
      events: { good: json(['first_touch']), bad: badEvents },
    },
  },
  'update-webhook': {
    method: 'PATCH',
    path: () => `/webhooks/${webhookId}`,
    fields: {
      url: { bad: badUrl(MAX_WEBHOOK_URL_LENGTH) },
      events: { bad: badEvents },
      enabled: { bad: notABoolean },
    },
  },
  'create-provider-connection': {
    method: 'POST',
    path: () => '/provider-connections',
    fields: {
      provider: { good: json('smartlead'), bad: badProvider },
      api_key: { good: json('sl-key-1234'), bad: badProviderApiKey },
      base_url: { bad: badUrl(2048).filter((text) => text !== 'null') },
    },
  },
  'reply-to-assignment': {
    method: 'POST',
    path: () => '/assignments/501/reply',
    fields: {
      body: {
        good: json('Hi'),
        bad: fc.oneof(notAString, fc.constant('""'), longerThan(MAX_REPLY_BODY).map(json)),
      },
      plain_text: { bad: notABoolean },
      to: { bad: badAddressList },
      cc: { bad: badAddressList },
      bcc: { bad: badAddressList },
    },
  },
};

/** A body with the chosen fields bad (at least two) and the others valid or absent. */
function manyBadFields(route: Route) {
  const names = Object.keys(route.fields);
  return fc
    .subarray(names, { minLength: 2 })
    .chain((bad) => fc.tuple(fc.constant(bad), fc.tuple(...bad.map((name) => route.fields[name]!.bad))))
    .map(([bad, values]) => {
      const members: [string, string][] = names.flatMap((name): [string, string][] => {
        const index = bad.indexOf(name);
        if (index >= 0) return [[name, values[index]!]];
        const good = route.fields[name]!.good;
        return good === undefined ? [] : [[name, good]];
      });
      return { bad, body: membersText(members) };
    });
}

async function refusedNamingEvery(route: Route, bad: readonly string[], body: string) {
  const answer = await apiClient(stack, apiKey).call(route.method, route.path(), body);
  const context = `${route.method} ${route.path()} ${body.slice(0, 400)} → ${answer.status} ${answer.text.slice(0, 600)}`;
  expect(answer.status, context).toBe(400);
  const paths = (answer.body.errors as { path: string }[]).map((problem) => problem.path);
  for (const field of bad) {
    expect(
      paths.some((path) => path === `body.${field}` || path.startsWith(`body.${field}[`)),
      `${field} is not named: ${context}`,
    ).toBe(true);
    expect(answer.body.message as string, context).toContain(`'${field}`);
  }
}

describe('every bad field of a request is named', () => {
  it.each(Object.entries(routes))('%s: bodies with several bad fields', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(manyBadFields(route), ({ bad, body }) => refusedNamingEvery(route, bad, body)),
      { numRuns: RUNS },
    );
  });

  it('names a webhook URL that is no URL beside a bad event type (the issue’s example)', async () => {
    const answer = await apiClient(stack, apiKey).post('/webhooks', { url: 'nope', events: ['bad'] });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { path: 'body.url', message: "Invalid body field 'url': must be an absolute URL" },
      {
        path: 'body.events[0]',
        message: expect.stringMatching(/^Invalid body field 'events\[0\]': /),
      },
    ]);
    expect(answer.body.message).toBe(
      answer.body.errors.map((problem: { message: string }) => problem.message).join('; '),
    );
  });

  it.each([
    [
      'a plain-text body too large once escaped, beside a bad cc',
      { body: '"'.repeat(MAX_REPLY_BODY), plain_text: true, cc: 'nope' },
      ['body', 'cc'],
    ],
    [
      'too many recipients, beside a body of the wrong type',
      {
        body: 42,
        to: Array.from({ length: MAX_RECIPIENTS + 1 }, (_, index) => `r${index}@example.com`).join(','),
      },
      ['body', 'to'],
    ],
  ])('names every problem of a reply: %s', async (_case, body, bad) => {
    await refusedNamingEvery(routes['reply-to-assignment']!, bad, json(body));
  });

  it('keeps the wording of a URL refused alone', async () => {
    const cases: [unknown, string][] = [
      ['nope', 'must be an absolute URL'],
      ['ftp://hooks.example.com/', 'must use https'],
      ['https://user:pw@hooks.example.com/', 'must not contain credentials'],
    ];
    for (const [url, reason] of cases) {
      const answer = await apiClient(stack, apiKey).post('/webhooks', { url, events: ['first_touch'] });
      expect(answer.body.message).toBe(`Invalid body field 'url': ${reason}`);
      const connection = await apiClient(stack, apiKey).post('/provider-connections', {
        provider: 'smartlead',
        api_key: `k-${MAX_PROVIDER_API_KEY_LENGTH}`,
        base_url: url,
      });
      expect(connection.body.message).toBe(`Invalid body field 'base_url': ${reason}`);
    }
  });
});
