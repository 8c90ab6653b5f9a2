import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '#domain/api-keys.ts';
import { createOrganization, setRateLimit } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { startTestStack } from '../support/local-stack.ts';
import { problemBody } from '../support/problem.ts';

let stack: LocalStack;
let apiKey: string;

beforeAll(async () => {
  stack = await startTestStack({ corsAllowedOrigins: ['https://app.example.com'] });
  const { orgId } = await createOrganization('E2E Inc');
  ({ apiKey } = await createApiKey(orgId));
});
afterAll(() => stack.stop());

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${stack.apiUrl}${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: JSON.parse(text),
  };
}

describe('GET /public/v1/auth over HTTP', () => {
  it('answers signed_in true for a valid key', async () => {
    const response = await call('/public/v1/auth', { headers: { 'x-api-key': apiKey } });
    expect(response).toMatchObject({ status: 200, body: { signed_in: true } });
    expect(response.contentType).toMatch(/^application\/json/);
  });

  it('answers 401 with a message when the key is missing', async () => {
    expect(await call('/public/v1/auth')).toEqual({
      status: 401,
      contentType: 'application/json',
      body: problemBody(401, 'Unauthorized'),
    });
  });

  it.each([['abc'], ['.x'], ['1.'], ['j'.repeat(10_240)], [`${'9'.repeat(5)}.${'A'.repeat(43)}`]])(
    'answers 401 for the bad key %#',
    async (key) => {
      const response = await call('/public/v1/auth', { headers: { 'x-api-key': key } });
      expect(response).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    },
  );

  it('answers 401 for a key revoked before its first use', async () => {
    const { orgId } = await createOrganization('Revoked Inc');
    const revoked = await createApiKey(orgId);
    await revokeApiKey(orgId, revoked.keyId);
    const response = await call('/public/v1/auth', { headers: { 'x-api-key': revoked.apiKey } });
    expect(response).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('reuses a cached authorizer decision, as API Gateway does, until the cache expires', async () => {
    const { orgId } = await createOrganization('Cached Inc');
    const cached = await createApiKey(orgId);
    expect((await call('/public/v1/auth', { headers: { 'x-api-key': cached.apiKey } })).status).toBe(200);
    await revokeApiKey(orgId, cached.keyId);
    expect((await call('/public/v1/auth', { headers: { 'x-api-key': cached.apiKey } })).status).toBe(200);
  });
});

describe('the local gateway', () => {
  it('answers 404 JSON for an unknown route, before authorization', async () => {
    expect(await call('/public/v1/nope')).toEqual({
      status: 404,
      contentType: 'application/json',
      body: problemBody(404, 'Not found'),
    });
  });

  it('answers 405 JSON with Allow for a method the route does not have, before authorization', async () => {
    const response = await fetch(`${stack.apiUrl}/public/v1/auth`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toEqual(problemBody(405, 'Method not allowed'));
  });

  it('answers 413 JSON for a body over the limit', async () => {
    const response = await call('/public/v1/auth', {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: 'x'.repeat(6 * 1024 * 1024 + 1),
    });
    expect(response).toMatchObject({ status: 413, body: { message: 'Request body too large' } });
  });
});

describe('per-organization rate limits', () => {
  async function burst(key: string, count: number) {
    const responses = await Promise.all(
      Array.from({ length: count }, () =>
        fetch(`${stack.apiUrl}/public/v1/auth`, { headers: { 'x-api-key': key } }),
      ),
    );
    return Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        policy: response.headers.get('ratelimit-policy'),
        limit: response.headers.get('ratelimit'),
        body: (await response.json()) as unknown,
      })),
    );
  }

  it("throttles an organization at its arranged limit with API Gateway's 429, leaving other organizations alone", async () => {
    const { orgId } = await createOrganization('Small Plan Inc');
    await setRateLimit(orgId, { rateLimit: 1, burstLimit: 3 });
    const small = await createApiKey(orgId);
    // Three at once fit the burst; refilling one a second, the rest of twenty sent together do not.
    const answers = await burst(small.apiKey, 20);
    const throttled = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(4);
    expect(throttled.length).toBeGreaterThanOrEqual(16);
    // Every answer says the plan and what is left of it (IETF RateLimit headers): the burst of 3 over the
    // 3 s the bucket takes to fill; a refusal has nothing left and says when to retry.
    for (const answer of answers) expect(answer.policy).toBe('"organization";q=3;w=3');
    for (const answer of answers.filter((each) => each.status === 200))
      expect(answer.limit).toMatch(/^"organization";r=[0-2];t=[1-3]$/);
    for (const answer of throttled) {
      expect(answer).toEqual({
        status: 429,
        retryAfter: '1',
        policy: '"organization";q=3;w=3',
        limit: expect.stringMatching(/^"organization";r=0;t=[1-3]$/),
        body: problemBody(429, 'Too many requests'),
      });
    }
    // The default plan of another organization is untouched by the first one's empty bucket.
    expect((await burst(apiKey, 20)).every((answer) => answer.status === 200)).toBe(true);
  });

  it('gives an organization without an arrangement the default plan, far above an interactive client', async () => {
    const { orgId } = await createOrganization('Default Plan Inc');
    const key = await createApiKey(orgId);
    const answers = await burst(key.apiKey, 100);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  });
});

describe('HTTP conventions (issue 37)', () => {
  const origin = 'https://app.example.com';

  it('answers CORS preflights on the open paths for any origin, and on /public/v1 only for a listed one', async () => {
    const preflight = (path: string, from: string) =>
      fetch(`${stack.apiUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin: from, 'access-control-request-method': 'POST' },
      });
    for (const path of [
      '/mcp',
      '/oauth/token',
      '/oauth/register',
      '/.well-known/oauth-authorization-server',
    ]) {
      const response = await preflight(path, 'https://anywhere.example');
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id',
      );
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const listed = await preflight('/public/v1/auth', origin);
    expect(listed.status).toBe(204);
    expect(listed.headers.get('access-control-allow-origin')).toBe(origin);
    expect(listed.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect((await preflight('/public/v1/auth', 'https://evil.example')).status).toBe(405);
    // The answers themselves carry the headers a page needs to read them.
    const token = await fetch(`${stack.apiUrl}/mcp`, {
      method: 'POST',
      headers: { origin: 'https://x.example' },
    });
    expect(token.status).toBe(401);
    expect(token.headers.get('access-control-allow-origin')).toBe('*');
    expect(token.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    const auth = await fetch(`${stack.apiUrl}/public/v1/auth`, { headers: { 'x-api-key': apiKey, origin } });
    expect(auth.headers.get('access-control-allow-origin')).toBe(origin);
    expect(auth.headers.get('vary')).toContain('Origin');
    const other = await fetch(`${stack.apiUrl}/public/v1/auth`, {
      headers: { 'x-api-key': apiKey, origin: 'https://evil.example' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers HEAD on a GET route with its headers and no body, and an unknown method with 405 and Allow', async () => {
    const get = await fetch(`${stack.apiUrl}/public/v1/auth`, { headers: { 'x-api-key': apiKey } });
    const head = await fetch(`${stack.apiUrl}/public/v1/auth`, {
      method: 'HEAD',
      headers: { 'x-api-key': apiKey },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect((await fetch(`${stack.apiUrl}/public/v1/auth`, { method: 'HEAD' })).status).toBe(401);
    const put = await fetch(`${stack.apiUrl}/public/v1/campaigns`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
    expect(await put.json()).toEqual(problemBody(405, 'Method not allowed'));
  });

  it('compresses answers over the stack’s minimum size with the coding the client accepts', async () => {
    for (const coding of ['gzip', 'br', 'deflate']) {
      const response = await fetch(`${stack.apiUrl}/openapi.json`, {
        headers: { 'accept-encoding': coding },
      });
      expect(response.headers.get('content-encoding')).toBe(coding);
      expect(response.headers.get('vary')).toContain('Accept-Encoding');
      expect((await response.json()) as object).toHaveProperty('openapi');
    }
    const identity = await fetch(`${stack.apiUrl}/openapi.json`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(identity.headers.get('content-encoding')).toBeNull();
    // A small answer is sent as it is.
    const small = await fetch(`${stack.apiUrl}/public/v1/auth`, {
      headers: { 'x-api-key': apiKey, 'accept-encoding': 'gzip' },
    });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('sends every error as problem details, labelled application/problem+json when Accept asks', async () => {
    const asked = await fetch(`${stack.apiUrl}/public/v1/campaigns/999999`, {
      headers: { 'x-api-key': apiKey, accept: 'application/problem+json' },
    });
    expect(asked.status).toBe(404);
    expect(asked.headers.get('content-type')).toBe('application/problem+json');
    expect(await asked.json()).toEqual(problemBody(404, 'Campaign 999999 not found', { errors: [] }));
    const invalid = await fetch(`${stack.apiUrl}/public/v1/campaigns/abc`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(invalid.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await invalid.json()).toMatchObject({
      status: 400,
      title: 'Bad Request',
      type: expect.stringMatching(/#errors-bad-request$/),
    });
    const gateway = await fetch(`${stack.apiUrl}/nowhere`, {
      headers: { accept: 'application/problem+json' },
    });
    expect(gateway.headers.get('content-type')).toBe('application/problem+json');
    // The type is a section of the reference page.
    const page = await (await fetch(`${stack.apiUrl}/docs`)).text();
    expect(page).toContain('id="errors-not-found"');
  });

  it('validates every GET with an ETag and answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${stack.apiUrl}/public/v1/auth`, { headers: { 'x-api-key': apiKey } });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    const again = await fetch(`${stack.apiUrl}/public/v1/auth`, {
      headers: { 'x-api-key': apiKey, 'if-none-match': `"other", ${etag}` },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const changed = await fetch(`${stack.apiUrl}/public/v1/auth`, {
      headers: { 'x-api-key': apiKey, 'if-none-match': 'W/"stale"' },
    });
    expect(changed.status).toBe(200);
  });
});
