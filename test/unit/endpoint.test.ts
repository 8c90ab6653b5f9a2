import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#api/http/endpoint.ts';
import {
  AssignmentNotFound,
  CampaignNotFound,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  SequenceNotInCampaign,
  UnknownCursor,
} from '#domain/errors.ts';

const context = { awsRequestId: 'req-1' } as Context;

function event(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: '/things/{id}',
    path: '/things/1',
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id: '1' },
    stageVariables: null,
    body: '{}',
    isBase64Encoded: false,
    requestContext: {
      requestId: 'req-1',
      authorizer: { orgId: '12', scope: 'read-write' },
    } as unknown as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  };
}

const schemas = {
  path: z.object({ id: z.coerce.number().int().positive() }),
  query: z.object({ take: z.coerce.number().int().max(100).default(25) }),
  body: z.object({ name: z.string().min(1) }),
  response: z.object({ id: z.number(), name: z.string(), take: z.number(), orgId: z.number() }),
};

const handler = defineEndpoint(schemas, async ({ orgId, path, query, body }) => ({
  id: path.id,
  name: body.name,
  take: query.take,
  orgId,
  internal: 'must not leak',
}));

const parse = (result: { body: string }) => JSON.parse(result.body) as Record<string, unknown>;

describe('defineEndpoint', () => {
  it('passes validated input and the organization to the operation and shapes the response', async () => {
    const result = await handler(event({ body: '{"name":"x"}' }), context);
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['content-type']).toMatch(/^application\/json/);
    expect(parse(result)).toEqual({ id: 1, name: 'x', take: 25, orgId: 12 });
  });

  it('answers 400 naming the query parameter that fails', async () => {
    const result = await handler(
      event({ body: '{"name":"x"}', queryStringParameters: { take: '101' } }),
      context,
    );
    expect(result.statusCode).toBe(400);
    expect(parse(result).message).toMatch(/^Invalid query parameter 'take'/);
  });

  it('answers 400 naming the body field that fails', async () => {
    const result = await handler(event({ body: '{"name":""}' }), context);
    expect(result.statusCode).toBe(400);
    expect(parse(result).message).toMatch(/^Invalid body field 'name'/);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const result = await handler(event({ body: '{"name":' }), context);
    expect(result.statusCode).toBe(400);
    expect(parse(result)).toEqual({ message: 'Request body is not valid JSON' });
  });

  it('answers 400 for a missing body', async () => {
    const result = await handler(event({ body: null }), context);
    expect(result.statusCode).toBe(400);
    expect(parse(result)).toEqual({ message: 'Request body must be a JSON object' });
  });

  it('answers 400 for a JSON body of the wrong type', async () => {
    const result = await handler(event({ body: '[1,2]' }), context);
    expect(result.statusCode).toBe(400);
    expect(parse(result).message).toMatch(/^Invalid request body:/);
  });

  it('answers 401 when no organization reached the handler', async () => {
    const result = await handler(
      event({ requestContext: {} as APIGatewayProxyEvent['requestContext'], body: '{"name":"x"}' }),
      context,
    );
    expect(result.statusCode).toBe(401);
  });

  it('maps a typed error to its status and message', async () => {
    const failing = defineEndpoint({ response: z.object({}) }, async () => {
      throw new CampaignNotFound(3);
    });
    const result = await failing(event(), context);
    expect(result.statusCode).toBe(404);
    expect(parse(result)).toEqual({ message: 'Campaign 3 not found' });
  });

  it.each([
    [new AssignmentNotFound(9), 404, 'Assignment 9 not found'],
    [
      new SequenceNotInCampaign('7 is not a sequence of campaign 3', { in: 'body', name: 'sequenceId' }),
      400,
      "Invalid body field 'sequenceId': 7 is not a sequence of campaign 3",
    ],
    [
      new UnknownCursor(12),
      400,
      "Invalid query parameter 'cursor': cursor 12 is not a position in this search",
    ],
    [new IdempotencyKeyInUse(), 409, 'A request with this Idempotency-Key is still in progress'],
    [new IdempotencyKeyReused(), 422, 'Idempotency-Key was already used with a different request'],
  ])('maps the domain error %o by its kind: %i', async (error, status, message) => {
    const failing = defineEndpoint({ response: z.object({}) }, async () => {
      throw error;
    });
    const result = await failing(event(), context);
    expect(result.statusCode).toBe(status);
    expect(parse(result)).toEqual({ message });
  });

  it('answers an opaque 500 for an unexpected error, without its text or stack', async () => {
    const failing = defineEndpoint({ response: z.object({}) }, async () => {
      throw new Error('ValidationException: secret table detail');
    });
    const result = await failing(event(), context);
    expect(result.statusCode).toBe(500);
    expect(result.body).toBe('{"message":"Internal server error"}');
  });
});
