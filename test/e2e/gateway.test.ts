import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '#domain/api-keys.ts';
import { createOrganization, setRateLimit } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { startTestStack } from '../support/local-stack.ts';

let stack: LocalStack;
let apiKey: string;

beforeAll(async () => {
  stack = await startTestStack();
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
      body: { message: 'Unauthorized' },
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
      body: { message: 'Not found' },
    });
  });

  it('answers 404 JSON for a method the route does not have', async () => {
    const response = await call('/public/v1/auth', { method: 'DELETE', headers: { 'x-api-key': apiKey } });
    expect(response).toMatchObject({ status: 404, body: { message: 'Not found' } });
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
        body: { message: 'Too many requests' },
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
