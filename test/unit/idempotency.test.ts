import { describe, expect, it } from 'vitest';
import { openApiDocument } from '#api/openapi/document.ts';
import { IDEMPOTENCY_TABLE_ACTIONS, IDEMPOTENT_METHODS, isIdempotencyKey } from '#definitions/idempotency.ts';
import { routes } from '#definitions/routes.ts';
import { endpointFingerprint, requestFingerprint } from '#domain/idempotency.ts';

/** The fingerprint an Idempotency-Key is bound to: the same for the same request, whatever it holds. */
describe('requestFingerprint', () => {
  it('is the same for members in another order and differs for another body or target', () => {
    const body = { contacts: [{ email: 'a@b.com', variables: { z: '1', a: '2' } }], skipIneligible: true };
    const reordered = {
      skipIneligible: true,
      contacts: [{ variables: { a: '2', z: '1' }, email: 'a@b.com' }],
    };
    expect(requestFingerprint('raw-push:101', reordered)).toBe(requestFingerprint('raw-push:101', body));
    expect(requestFingerprint('raw-push:102', body)).not.toBe(requestFingerprint('raw-push:101', body));
    expect(requestFingerprint('raw-push:101', { ...body, skipIneligible: false })).not.toBe(
      requestFingerprint('raw-push:101', body),
    );
    // Array order is part of the request.
    expect(requestFingerprint('raw-push:101', { list: [1, 2] })).not.toBe(
      requestFingerprint('raw-push:101', { list: [2, 1] }),
    );
  });

  it.each([
    [
      'a push body',
      {
        contacts: [{ email: 'a@b.com', variables: { z: '1', a: '2' } }],
        skipIneligible: true,
        sequenceId: 201,
      },
      '29750b48658a3d52a3b3a8a50c964031ab44bfbf64c7531507986cea958ce5b7',
    ],
    [
      'nested arrays, objects and scalars',
      { b: [1, 'x', null, true, { d: [], c: {} }], a: -0.5, ['__proto__']: 'p' },
      'c1d6329bca34f656876d3a2dfd7ef1e61c189ab18923c91bb61e14d1c29fb86c',
    ],
    [
      'members named like Object.prototype members',
      JSON.parse('{"__proto__": {"x": 1}, "constructor": "c", "a": [[{"b": 2}]]}'),
      '5facab1e14310152e3f8728093d078bb182d819d97df647f7a7e5675942573ea',
    ],
    ['an empty array', [], '295328387556684440d476f0377bf954cf94596ea4e5fe15ae9c7131a7e73617'],
  ])('keeps the fingerprints of keys stored before it became iterative (%s)', (_case, body, expected) => {
    expect(requestFingerprint('raw-push:101', body)).toBe(expected);
  });

  it.each([
    ['arrays', (inner: unknown) => [inner]],
    ['objects', (inner: unknown) => ({ a: inner })],
  ])('fingerprints %s nested 200,000 deep without exhausting the call stack', (_kind, wrap) => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 200_000; level++) deep = wrap(deep);
    expect(requestFingerprint('raw-push:101', { contacts: deep })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('Idempotency-Key on every unsafe operation', () => {
  it('is granted its table actions on every API-key route whose method may change something', () => {
    const unsafe = routes.filter(
      (route) => route.auth === 'apiKey' && IDEMPOTENT_METHODS.includes(route.method),
    );
    expect(unsafe.length).toBeGreaterThan(10);
    const missing = unsafe.flatMap((route) =>
      IDEMPOTENCY_TABLE_ACTIONS.filter((action) => !(route.table as readonly string[]).includes(action)).map(
        (action) => `${route.name}: ${action}`,
      ),
    );
    expect(missing).toEqual([]);
  });

  it('seals the kept answer of every route whose answer holds a credential, with the MAC key it is granted', () => {
    // The document's answer schemas name the credentials: a signing secret, a provider webhook URL.
    const openapi = openApiDocument('https://api.example.com') as unknown as {
      paths: Record<string, Record<string, OpenApiOperation>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const { schemas } = openapi.components;
    const holdsCredential = (ref: string) =>
      Object.keys(schemas[ref.replace('#/components/schemas/', '')]?.properties ?? {}).some((field) =>
        ['secret', 'webhook_url'].includes(field),
      );
    const answers = routes
      .filter((route) => route.auth === 'apiKey' && IDEMPOTENT_METHODS.includes(route.method))
      .map((route) => {
        const operation = openapi.paths[route.path]![route.method.toLowerCase()]!;
        return {
          route: route.name,
          credential: holdsCredential(operation.responses['200']!.content['application/json']!.schema.$ref),
          sealed: 'answersCredential' in route && route.answersCredential === true,
          mac: ((('secrets' in route && route.secrets) || []) as readonly string[]).includes('mac'),
        };
      });
    expect(answers.filter((answer) => answer.credential).map((answer) => answer.route)).toEqual([
      'create-webhook',
      'rotate-webhook-secret',
      'create-provider-connection',
      'update-provider-connection',
      'rotate-provider-webhook-url',
      'check-provider-connection',
    ]);
    for (const answer of answers) {
      expect(answer).toEqual({ ...answer, sealed: answer.credential, mac: answer.credential || answer.mac });
    }
  });

  it.each([
    ['a UUID', '0b6f5a7e-3c1d-4e2f-9a8b-7c6d5e4f3a2b', true],
    ['one character', 'k', true],
    ['255 characters', 'k'.repeat(255), true],
    ['printable ASCII with spaces', 'retry #2 of {push}~', true],
    ['empty', '', false],
    ['256 characters', 'k'.repeat(256), false],
    ['a letter beyond ASCII', 'clé', false],
    ['a tab', 'a\tb', false],
    ['DEL', 'a\x7fb', false],
  ])('takes %s as a key: %s', (_case, key, valid) => {
    expect(isIdempotencyKey(key)).toBe(valid);
  });

  it('fingerprints the method, the route and the validated parts', () => {
    const parts = { path: { id: 7 }, body: { url: 'https://a.example', events: ['first_touch'] } };
    const same = endpointFingerprint('POST', '/public/v1/webhooks/{id}', {
      body: { events: ['first_touch'], url: 'https://a.example' },
      path: { id: 7 },
    });
    expect(same).toBe(endpointFingerprint('POST', '/public/v1/webhooks/{id}', parts));
    expect(endpointFingerprint('PATCH', '/public/v1/webhooks/{id}', parts)).not.toBe(same);
    expect(endpointFingerprint('POST', '/public/v1/webhooks/{id}', { ...parts, path: { id: 8 } })).not.toBe(
      same,
    );
  });
});

interface OpenApiOperation {
  responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
}
