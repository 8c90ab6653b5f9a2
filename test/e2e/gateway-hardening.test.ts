import { connect } from 'node:net';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { signedInMember } from '../../infra/local/dashboard-member.ts';
import { type LocalRoute, startGateway } from '../../infra/local/gateway.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { startTestStack } from '../support/local-stack.ts';

/**
 * Regressions of the hardening probes against the local gateway: no request
 * can make it throw (issue rows 2 and 9), every refusal is `{message}`, and
 * the service's own URL never comes from the client's Host or X-Forwarded-*
 * headers (row 7). Each of these failed on the gateway before the fix: the
 * `//[` request line killed the process with an uncaught `TypeError: Invalid
 * URL`, a 20 KB header got Node's bare 431, and `Host: evil.example` landed
 * in the OpenAPI servers, the consent form and the reference page.
 */

let stack: LocalStack;
let apiKey: string;
let orgId: number;
let port: number;

beforeAll(async () => {
  stack = await startTestStack();
  port = Number(new URL(stack.apiUrl).port);
  ({ orgId } = await createOrganization('Gateway Hardening'));
  ({ apiKey } = await createApiKey(orgId));
});
afterAll(() => stack.stop());

/** Sends raw bytes and returns the raw response (what a hostile client, not fetch, can send). */
function rawExchange(targetPort: number, request: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(targetPort, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    // Written, not ended: a half-closed socket may be dropped before the answer (Node's httpAllowHalfOpen).
    socket.write(request);
  });
}

function parseResponse(raw: Buffer) {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, split).toString('latin1');
  let body = raw.subarray(split + 4);
  if (/^transfer-encoding: chunked$/im.test(head)) body = dechunk(body);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, head, body: body.toString('utf8') };
}

/** The body of a chunked response. */
function dechunk(chunked: Buffer): Buffer {
  const parts: Buffer[] = [];
  let rest = chunked;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
}

async function stillServing() {
  const response = await fetch(`${stack.apiUrl}/public/v1/auth`, { headers: { 'x-api-key': apiKey } });
  expect(response.status).toBe(200);
}

describe('the local gateway answers every request, whatever it looks like', () => {
  it.each([
    [
      'a request target that is no URL path (//[)',
      'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      404,
    ],
    [
      'an absolute-form target',
      'GET http://evil.example/public/v1/auth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      404,
    ],
    ['an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404],
    [
      'broken percent-encoding in a path parameter',
      'GET /public/v1/campaigns/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      404,
    ],
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400],
    [
      'a request line with a space in the target',
      'GET /a b c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      400,
    ],
    ['a header without a colon', 'GET /public/v1/auth HTTP/1.1\r\nHost x\r\nConnection: close\r\n\r\n', 400],
    [
      'a 20 KB header',
      `GET /public/v1/auth HTTP/1.1\r\nHost: x\r\nx-api-key: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
      431,
    ],
  ])('%s: a {message} refusal, and it keeps serving', async (_, request, status) => {
    const response = parseResponse(await rawExchange(port, request));
    expect(response.status).toBe(status);
    expect(response.head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(response.body)).toMatchObject({ message: expect.any(String) });
    await stillServing();
  });

  it('refuses a client address over its bucket before routing or authentication, with the stage’s 429', async () => {
    const gateway = await startGateway(
      {
        routes: [],
        authorizer: (): Promise<APIGatewayAuthorizerResult> => Promise.reject(new Error('never called')),
        throttling: {
          clientAddress: { rateLimit: 0.001, burstLimit: 3 },
          stage: { rateLimit: 1000, burstLimit: 1000 },
          usagePlanOf: () => Promise.reject(new Error('never called')),
        },
      },
      0,
    );
    try {
      const address = gateway.address() as { port: number };
      const statuses: number[] = [];
      const bodies: unknown[] = [];
      for (let index = 0; index < 5; index++) {
        const response = await fetch(`http://127.0.0.1:${address.port}/anything`);
        statuses.push(response.status);
        bodies.push(await response.json());
        if (response.status === 429) expect(response.headers.get('retry-after')).toBe('1');
      }
      // Three unknown-route answers (the bucket's burst), then the address is cut off.
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
      expect(bodies.at(-1)).toMatchObject({ message: 'Too many requests' });
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
    }
  });
});

describe('a handler result the gateway cannot send', () => {
  // What API Gateway answers a malformed Lambda proxy response with: 502, its own `{message}`.
  const malformed: [string, unknown][] = [
    ['a Location with CR LF', { statusCode: 303, headers: { location: '/dashboard\r\nx: y' }, body: '' }],
    ['a header value with a NUL', { statusCode: 200, headers: { 'x-note': 'a\0b' }, body: '' }],
    ['a header value beyond Latin-1', { statusCode: 200, headers: { 'x-note': '\u20ac' }, body: '' }],
    ['a header name with a space', { statusCode: 200, headers: { 'x note': 'a' }, body: '' }],
    [
      'a multi-value header with LF',
      { statusCode: 200, multiValueHeaders: { 'set-cookie': ['a=b\nc'] }, body: '' },
    ],
    ['a status that is no number', { statusCode: 'ok', body: '' }],
    ['a status below 100', { statusCode: 99, body: '' }],
    ['a status above 599', { statusCode: 1000, body: '' }],
    ['a status that is no integer', { statusCode: 200.5, body: '' }],
    ['no status', { body: '' }],
    ['a body that is a number', { statusCode: 200, body: 42 }],
    ['a body that is an object', { statusCode: 200, body: { a: 1 } }],
    ['a body that is an array', { statusCode: 200, body: [104, 105] }],
    ['no result at all', undefined],
    ['a string as the result', 'hello'],
  ];
  const logged: string[] = [];
  let gatewayUrl: string;
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    const routes: LocalRoute[] = malformed.map(([, result], index) => ({
      name: `malformed-${index}`,
      method: 'GET',
      path: `/malformed/${index}`,
      auth: 'none',
      table: [],
      invoke: async () => result as APIGatewayProxyResult,
    }));
    routes.push({
      name: 'well-formed',
      method: 'GET',
      path: '/well-formed',
      auth: 'none',
      table: [],
      invoke: async () => ({ statusCode: 200, headers: { 'x-note': 'ok' }, body: 'fine' }),
    });
    gateway = await startGateway(
      {
        routes,
        authorizer: (): Promise<APIGatewayAuthorizerResult> => Promise.reject(new Error('never called')),
        log: (line) => logged.push(line),
      },
      0,
    );
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => gateway.close(resolve)));

  it.each(malformed.map(([name], index) => [name, index] as const))(
    '%s: 502 {"message":"Internal server error"}, the cause logged, and it keeps serving',
    async (_, index) => {
      const raw = await rawExchange(
        Number(new URL(gatewayUrl).port),
        `GET /malformed/${index} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      const response = parseResponse(raw);
      expect(response.status).toBe(502);
      expect(response.head.toLowerCase()).toContain('content-type: application/json');
      expect(response.head.toLowerCase()).toMatch(/^x-amzn-requestid: [0-9a-f-]{36}$/m);
      expect(JSON.parse(response.body)).toMatchObject({ message: 'Internal server error' });
      expect(logged.some((line) => line.includes(`malformed-${index}`))).toBe(true);
      const fine = await fetch(`${gatewayUrl}/well-formed`);
      expect([fine.status, fine.headers.get('x-note'), await fine.text()]).toEqual([200, 'ok', 'fine']);
    },
  );
});

describe("the service's own URL never comes from the client's headers", () => {
  const hostile = [
    { Host: 'evil.example' },
    { Host: 'a b' },
    { 'X-Forwarded-Proto': 'javascript' },
    { 'X-Forwarded-Proto': 'a b' },
    { 'X-Forwarded-Host': 'evil.example' },
  ];

  it.each(hostile)(
    'the OpenAPI document, the reference page and the OAuth metadata with %j',
    async (headers) => {
      const own = stack.apiUrl;
      for (const path of [
        '/openapi.json',
        '/docs',
        '/.well-known/oauth-authorization-server',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        const response = await rawExchange(
          port,
          `GET ${path} HTTP/1.1\r\n${Object.entries({ Host: `127.0.0.1:${port}`, ...headers })
            .map(([name, value]) => `${name}: ${value}`)
            .join('\r\n')}\r\nConnection: close\r\n\r\n`,
        );
        const { status, head, body } = parseResponse(response);
        expect(status, path).toBe(200);
        const text = `${head}\n${body}`;
        expect(text, path).not.toContain('evil.example');
        expect(text, path).not.toContain('javascript:');
        expect(text, path).not.toMatch(/a b:\/\/|\/\/a b/);
        if (path === '/openapi.json') expect(JSON.parse(body).servers[0].url).toBe(own);
        if (path.includes('authorization-server')) expect(JSON.parse(body).issuer).toBe(own);
        if (path.includes('protected-resource')) expect(JSON.parse(body).resource).toBe(`${own}/mcp`);
      }
    },
  );

  it('names the consent form’s action after the configured base, not the Host header', async () => {
    const redirectUri = 'https://assistant.example/callback';
    const { clientId } = await createOAuthClient(orgId, 'Assistant', [redirectUri]);
    const member = await signedInMember(orgId, 'admin');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: `${stack.apiUrl}/mcp`,
    });
    const raw = await rawExchange(
      port,
      `GET /oauth/authorize?${query} HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Proto: javascript\r\nCookie: ${member.cookie}\r\nConnection: close\r\n\r\n`,
    );
    const { status, body } = parseResponse(raw);
    expect(status).toBe(200);
    expect(body).toContain(`action="${stack.apiUrl}/oauth/authorize"`);
    expect(body).not.toContain('evil.example');
  });
});
