import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { defineEndpoint, READ_ONLY_KEY_MESSAGE } from '#api/http/endpoint.ts';
import { type OpenApiDocument, openApiDocument } from '#api/openapi/document.ts';
import { API_KEY_SCOPES, routes } from '#definitions/routes.ts';
import { contractMembers } from '../support/problem.ts';

/**
 * API key scopes: the manifest names the scope every API-key route needs, the
 * endpoint wrapper holds a `read` key to it (403 before validation), and the
 * OpenAPI document says it per operation.
 */

/** The routes that write: a `read` key may call none of them. */
const WRITE_ROUTES = [
  'push-raw-contacts',
  'reply-to-assignment',
  'exclude-account',
  'create-webhook',
  'update-webhook',
  'delete-webhook',
  'test-webhook',
  'rotate-webhook-secret',
  'redeliver-webhook-delivery',
  'create-provider-connection',
  'update-provider-connection',
  'delete-provider-connection',
  'rotate-provider-webhook-url',
  'check-provider-connection',
  'put-sequence-provider-link',
  'delete-sequence-provider-link',
];

const apiKeyRoutes = routes.filter((route) => route.auth === 'apiKey');

describe('the route manifest', () => {
  it('names a scope on every API-key route, and none elsewhere', () => {
    for (const route of routes) {
      if (route.auth === 'apiKey') expect(API_KEY_SCOPES, route.name).toContain(route.scope);
      else expect(route, route.name).not.toHaveProperty('scope');
    }
  });

  it('asks read-write of exactly the routes that write', () => {
    const readWrite = apiKeyRoutes.filter((route) => route.scope === 'read-write').map((route) => route.name);
    expect(readWrite.sort()).toEqual([...WRITE_ROUTES].sort());
  });

  it('lets a read key call only GETs and the eligibility dry run (a POST that writes nothing)', () => {
    const readOnly = apiKeyRoutes.filter((route) => route.scope === 'read');
    expect(readOnly.filter((route) => route.method !== 'GET').map((route) => route.name)).toEqual([
      'check-eligibility',
    ]);
    expect(readOnly.map((route) => route.name)).toContain('auth');
  });
});

const context = { awsRequestId: 'req-1' } as Context;
const routeNamed = (name: string) => routes.find((route) => route.name === name)!;

/** The event the gateway sends for `route`, after its authorizer put `authorizer` in the context. */
function eventFor(
  route: { method: string; path: string },
  authorizer: Record<string, string> | null,
  body: string | null = '{"name":"x"}',
): APIGatewayProxyEvent {
  return {
    resource: route.path,
    path: route.path,
    httpMethod: route.method,
    headers: { 'content-type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', authorizer } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

function endpoint() {
  const operation = vi.fn(async ({ orgId }: { orgId: number }) => ({ orgId }));
  const handler = defineEndpoint(
    { body: z.object({ name: z.string().min(1) }), response: z.object({ orgId: z.number() }) },
    operation,
  );
  const call = async (event: APIGatewayProxyEvent) => {
    const result = await handler(event, context);
    return { status: result.statusCode, body: contractMembers(result.statusCode, result.body) as unknown };
  };
  return { operation, call };
}

const READ = { orgId: '12', keyId: '3', scope: 'read' };
const READ_WRITE = { orgId: '12', keyId: '4', scope: 'read-write' };
const REFUSED = { status: 403, body: { message: READ_ONLY_KEY_MESSAGE, errors: [], request_id: 'req-1' } };

describe('defineEndpoint and the key’s scope', () => {
  it.each(WRITE_ROUTES)('refuses a read key on %s with 403 {message}, running nothing', async (name) => {
    const { operation, call } = endpoint();
    expect(await call(eventFor(routeNamed(name), READ))).toEqual(REFUSED);
    expect(operation).not.toHaveBeenCalled();
  });

  it('refuses a read key before validating the request, so an invalid body is 403 too', async () => {
    const { call } = endpoint();
    const push = routeNamed('push-raw-contacts');
    expect(await call(eventFor(push, READ, '{"name":'))).toEqual(REFUSED);
    expect(await call(eventFor(push, READ, null))).toEqual(REFUSED);
    expect((await call(eventFor(push, READ_WRITE, '{"name":'))).status).toBe(400);
  });

  it('runs a read key on a route that needs read, the eligibility dry run included', async () => {
    for (const name of ['check-eligibility', 'list-campaigns', 'auth']) {
      const { operation, call } = endpoint();
      expect(await call(eventFor(routeNamed(name), READ)), name).toEqual({
        status: 200,
        body: { orgId: 12 },
      });
      expect(operation).toHaveBeenCalledOnce();
    }
  });

  it('runs a read-write key on every route', async () => {
    for (const route of apiKeyRoutes) {
      const { call } = endpoint();
      expect((await call(eventFor(route, READ_WRITE))).status, route.name).toBe(200);
    }
  });

  it('counts a context without a scope it knows as read', async () => {
    const { call } = endpoint();
    const push = routeNamed('push-raw-contacts');
    expect(await call(eventFor(push, { orgId: '12' }))).toEqual(REFUSED);
    expect(await call(eventFor(push, { orgId: '12', scope: 'admin' }))).toEqual(REFUSED);
    expect((await call(eventFor(routeNamed('list-campaigns'), { orgId: '12' }))).status).toBe(200);
  });

  it('asks read-write for an event that names no route of the manifest', async () => {
    const { call } = endpoint();
    const unknown = { method: 'GET', path: '/public/v1/unknown' };
    expect(await call(eventFor(unknown, READ))).toEqual(REFUSED);
    expect((await call(eventFor(unknown, READ_WRITE))).status).toBe(200);
  });

  it('hands the operation the key’s scope, so it can withhold what a read key may not see', async () => {
    const scopes: unknown[] = [];
    const handler = defineEndpoint({ response: z.object({}) }, async (input) => {
      scopes.push(input.scope);
      return {};
    });
    const list = routeNamed('list-provider-connections');
    const authorizers: Record<string, string>[] = [
      READ,
      READ_WRITE,
      { orgId: '12' },
      { orgId: '12', scope: 'admin' },
    ];
    for (const authorizer of authorizers)
      expect((await handler(eventFor(list, authorizer, null), context)).statusCode).toBe(200);
    // A context without a scope it knows counts as read.
    expect(scopes).toEqual(['read', 'read-write', 'read', 'read']);
  });

  it('answers 401 without an organization, before looking at the scope', async () => {
    const { call } = endpoint();
    expect((await call(eventFor(routeNamed('push-raw-contacts'), null))).status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  let document: OpenApiDocument;
  beforeAll(() => {
    document = openApiDocument('https://api.example.com/dev');
  });
  const operationOf = (route: { method: string; path: string }) =>
    document.paths[route.path]?.[route.method.toLowerCase()] as {
      description: string;
      responses: Record<string, unknown>;
      'x-required-scope'?: string;
    };

  it('states the scope each API-key operation needs, in x-required-scope and in its description', () => {
    for (const route of apiKeyRoutes) {
      const operation = operationOf(route);
      expect(operation['x-required-scope'], route.name).toBe(route.scope);
      expect(operation.description, route.name).toMatch(
        route.scope === 'read-write'
          ? /It needs an API key of scope `read-write`: a `read` key is 403\.$/
          : /Any API key may call it \(scope `read` suffices\)\.$/,
      );
    }
    for (const route of routes.filter((candidate) => candidate.auth === 'none')) {
      const documented = Object.values(document.paths[route.path] ?? {}) as Record<string, unknown>[];
      for (const operation of documented)
        expect(operation, route.name).not.toHaveProperty('x-required-scope');
    }
  });

  it('says which fields a read key is not answered: not required, x-required-scope and the description', () => {
    const { schemas } = document.components;
    const connection = schemas.ProviderConnection as {
      properties: Record<string, { description?: string; 'x-required-scope'?: string }>;
      required: string[];
    };
    expect(connection.required).not.toContain('webhook_url');
    expect(connection.properties.webhook_url).toMatchObject({
      type: 'string',
      format: 'uri',
      'x-required-scope': 'read-write',
      description: expect.stringMatching(/absent for a `read` key/i),
    });
    type Json = Record<string, unknown>;
    const responseOf = (name: string) =>
      (operationOf(routeNamed(name)).responses['200'] as { content: Record<string, { schema: Json }> })
        .content['application/json']!.schema;
    expect(responseOf('get-provider-connection')).toEqual({
      $ref: '#/components/schemas/ProviderConnection',
    });
    expect(schemas.ListProviderConnectionsResponse).toMatchObject({
      properties: { connections: { items: { $ref: '#/components/schemas/ProviderConnection' } } },
    });
    // A read-write key is always answered the URL: the routes only it may call promise it.
    for (const name of [
      'create-provider-connection',
      'update-provider-connection',
      'rotate-provider-webhook-url',
      'check-provider-connection',
    ]) {
      expect(responseOf(name), name).toEqual({
        $ref: '#/components/schemas/ProviderConnectionWithWebhookUrl',
      });
    }
    expect((schemas.ProviderConnectionWithWebhookUrl as { required: string[] }).required).toContain(
      'webhook_url',
    );
    // Wherever a field names the scope it needs, it is optional.
    const scoped: string[] = [];
    const visit = (schema: unknown, where: string): void => {
      if (schema === null || typeof schema !== 'object') return;
      const { properties, required = [] } = schema as { properties?: Json; required?: string[] };
      for (const [name, property] of Object.entries(properties ?? {})) {
        if ((property as Json)['x-required-scope']) {
          scoped.push(`${where}.${name}`);
          expect(required, `${where}.${name}`).not.toContain(name);
        }
      }
      for (const [key, value] of Object.entries(schema)) visit(value, `${where}.${key}`);
    };
    visit(schemas, 'schemas');
    expect(scoped).toEqual(['schemas.ProviderConnection.webhook_url']);
  });

  it('lists 403 on exactly the operations that need read-write, with the message a read key gets', () => {
    for (const route of apiKeyRoutes) {
      const { responses } = operationOf(route);
      if (route.scope === 'read-write')
        expect(responses['403'], route.name).toEqual({ $ref: '#/components/responses/Forbidden' });
      else expect(responses, route.name).not.toHaveProperty('403');
    }
    expect(document.components.responses.Forbidden).toMatchObject({
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: { message: READ_ONLY_KEY_MESSAGE },
        },
      },
    });
  });
});
