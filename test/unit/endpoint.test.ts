import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { MAX_BODY_BYTES } from '#definitions/request-limits.ts';
import {
  AssignmentNotFound,
  CampaignNotFound,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  SequenceNotInCampaign,
  UnknownCursor,
} from '#domain/errors.ts';
import { MAX_LISTED_PROBLEMS } from '#schemas/issues.ts';
import { errorBody } from '#schemas/resources.ts';
import { contractMembers } from '../support/problem.ts';

/** Lambda's own id of the invocation; the error bodies carry the gateway's (`requestContext.requestId`). */
const context = { awsRequestId: 'lambda-invocation-1' } as Context;
const REQUEST_ID = 'gw-req-1';

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
      requestId: REQUEST_ID,
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

const parse = (result: { statusCode: number; body: string }) =>
  contractMembers(result.statusCode, result.body);

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
    expect(parse(result)).toEqual({
      message: 'Request body is not valid JSON',
      errors: [{ path: 'body', message: 'Request body is not valid JSON' }],
      request_id: REQUEST_ID,
    });
  });

  it('answers 400 for a missing body', async () => {
    const result = await handler(event({ body: null }), context);
    expect(result.statusCode).toBe(400);
    expect(parse(result)).toEqual({
      message: 'Request body must be a JSON object',
      errors: [{ path: 'body', message: 'Request body must be a JSON object' }],
      request_id: REQUEST_ID,
    });
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
    expect(parse(result)).toEqual({ message: 'Campaign 3 not found', errors: [], request_id: REQUEST_ID });
  });

  it.each([
    [new AssignmentNotFound(9), 404, 'Assignment 9 not found', null],
    [
      new SequenceNotInCampaign('7 is not a sequence of campaign 3', { in: 'body', name: 'sequenceId' }),
      400,
      "Invalid body field 'sequenceId': 7 is not a sequence of campaign 3",
      'body.sequenceId',
    ],
    [
      new UnknownCursor(12),
      400,
      "Invalid query parameter 'cursor': cursor 12 is not a position in this search",
      'query.cursor',
    ],
    [new IdempotencyKeyInUse(), 409, 'A request with this Idempotency-Key is still in progress', null],
    [new IdempotencyKeyReused(), 422, 'Idempotency-Key was already used with a different request', null],
  ])('maps the domain error %o by its kind: %i', async (error, status, message, path) => {
    const failing = defineEndpoint({ response: z.object({}) }, async () => {
      throw error;
    });
    const result = await failing(event(), context);
    expect(result.statusCode).toBe(status);
    expect(parse(result)).toEqual({
      message,
      errors: path ? [{ path, message }] : [],
      request_id: REQUEST_ID,
    });
  });

  it('answers an opaque 500 for an unexpected error, without its text or stack', async () => {
    const failing = defineEndpoint({ response: z.object({}) }, async () => {
      throw new Error('ValidationException: secret table detail');
    });
    const result = await failing(event(), context);
    expect(result.statusCode).toBe(500);
    expect(result.body).toBe(
      `{"message":"Internal server error","request_id":"${REQUEST_ID}","type":"/docs#errors-internal-error","title":"Internal Server Error","status":500,"detail":"Internal server error"}`,
    );
  });
});

describe('defineEndpoint: every problem of a request', () => {
  const several = defineEndpoint(
    {
      path: z.object({ id: z.coerce.number().int().positive() }),
      query: z.object({ take: z.coerce.number().int().max(100).default(25) }),
      body: z.object({
        name: z.string().min(1),
        contacts: z.array(z.object({ email: z.email() })),
        flag: z.boolean().default(false),
      }),
      response: z.object({}),
    },
    async () => ({}),
  );

  it('names each problem of the body in the message, joined, and lists them in errors with their paths', async () => {
    const result = await several(
      event({ body: JSON.stringify({ name: '', contacts: [{ email: 'a@b.example' }, { email: 'nope' }] }) }),
      context,
    );
    expect(result.statusCode).toBe(400);
    const body = parse(result);
    expect(Object.keys(body)).toEqual(['message', 'errors', 'request_id']);
    expect(body.errors).toEqual([
      { path: 'body.name', message: expect.stringMatching(/^Invalid body field 'name': /) },
      {
        path: 'body.contacts[1].email',
        message: expect.stringMatching(/^Invalid body field 'contacts\[1\]\.email': /),
      },
    ]);
    const errors = body.errors as { message: string }[];
    expect(body.message).toBe(errors.map((error) => error.message).join('; '));
    expect(body.request_id).toBe(REQUEST_ID);
  });

  it('names the problems of the path, the query and the body together, in that order', async () => {
    const result = await several(
      event({
        pathParameters: { id: 'abc' },
        queryStringParameters: { take: '101' },
        body: '{"name":"x","contacts":[],"flag":"yes"}',
      }),
      context,
    );
    expect(result.statusCode).toBe(400);
    const body = parse(result);
    const errors = body.errors as { path: string; message: string }[];
    expect(errors.map((error) => error.path)).toEqual(['path.id', 'query.take', 'body.flag']);
    expect(errors[0]!.message).toMatch(/^Invalid path parameter 'id': /);
    expect(errors[1]!.message).toMatch(/^Invalid query parameter 'take': /);
    expect(errors[2]!.message).toMatch(/^Invalid body field 'flag': /);
    expect(body.message).toBe(errors.map((error) => error.message).join('; '));
  });

  it('names a body that is no JSON along with the path and query problems', async () => {
    const result = await several(event({ pathParameters: { id: '0' }, body: '{"name":' }), context);
    expect(result.statusCode).toBe(400);
    expect(parse(result)).toEqual({
      message: expect.stringMatching(/^Invalid path parameter 'id': .*; Request body is not valid JSON$/),
      errors: [
        { path: 'path.id', message: expect.stringMatching(/^Invalid path parameter 'id': /) },
        { path: 'body', message: 'Request body is not valid JSON' },
      ],
      request_id: REQUEST_ID,
    });
  });

  it('keeps today’s message for a single problem, and lists it alone', async () => {
    const result = await handler(event({ body: '{"name":""}' }), context);
    expect(result.statusCode).toBe(400);
    const body = parse(result);
    expect(body.message).toBe("Invalid body field 'name': Too small: expected string to have >=1 characters");
    expect(body.errors).toEqual([{ path: 'body.name', message: body.message }]);
  });

  it('names the request body as a whole at `body`, as it words it today', async () => {
    const result = await handler(event({ body: '[1,2]' }), context);
    expect(result.statusCode).toBe(400);
    const body = parse(result);
    expect(body.message).toBe('Invalid request body: Invalid input: expected object, received array');
    expect(body.errors).toEqual([{ path: 'body', message: body.message }]);
  });

  it(`lists the first ${MAX_LISTED_PROBLEMS} problems, and says how many more there were`, async () => {
    const contacts = Array.from({ length: MAX_LISTED_PROBLEMS + 5 }, (_, index) => ({
      email: `bad-${index}`,
    }));
    const result = await several(event({ body: JSON.stringify({ name: 'x', contacts }) }), context);
    expect(result.statusCode).toBe(400);
    const body = parse(result);
    const errors = body.errors as { path: string; message: string }[];
    expect(errors).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(errors.at(-1)!.path).toBe(`body.contacts[${MAX_LISTED_PROBLEMS - 1}].email`);
    expect(body.message).toBe(`${errors.map((error) => error.message).join('; ')}; and 5 more problems`);
    // The document's bound on `errors` is the same.
    const schema = z.toJSONSchema(errorBody, { io: 'output' });
    expect(schema.properties?.errors).toMatchObject({ maxItems: MAX_LISTED_PROBLEMS });
  });

  it('answers a body too large with 413 naming the body, or as one more problem of a 400', async () => {
    const large = JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES), contacts: [] });
    const alone = await several(event({ body: large }), context);
    expect(alone.statusCode).toBe(413);
    expect(parse(alone)).toEqual({
      message: 'Request body too large',
      errors: [{ path: 'body', message: 'Request body too large' }],
      request_id: REQUEST_ID,
    });
    const withPath = await several(event({ pathParameters: { id: 'x' }, body: large }), context);
    expect(withPath.statusCode).toBe(400);
    expect((parse(withPath).errors as { path: string }[]).map((error) => error.path)).toEqual([
      'path.id',
      'body',
    ]);
  });
});

describe('defineEndpoint: the request id in every error body', () => {
  const failingWith = (error: Error) =>
    defineEndpoint({ response: z.object({}) }, async () => {
      throw error;
    });

  it.each([
    [400, new SequenceNotInCampaign('7 is not a sequence of campaign 3', { in: 'body', name: 'sequenceId' })],
    [404, new CampaignNotFound(3)],
    [409, new IdempotencyKeyInUse()],
    [422, new IdempotencyKeyReused()],
    [500, new Error('boom')],
  ])('%i carries the gateway’s requestContext.requestId', async (status, error) => {
    const result = await failingWith(error)(
      event({ requestContext: { ...event().requestContext, requestId: `id-${status}` } }),
      context,
    );
    expect(result.statusCode).toBe(status);
    expect(parse(result).request_id).toBe(`id-${status}`);
  });

  it('carries it on a 400 of validation', async () => {
    const result = await handler(
      event({
        body: '{"name":""}',
        requestContext: { ...event().requestContext, requestId: 'validation-id' },
      }),
      context,
    );
    expect(result.statusCode).toBe(400);
    expect(parse(result).request_id).toBe('validation-id');
  });

  it('says only "Internal server error" on a 500, and the request id: no errors, no detail', async () => {
    const result = await failingWith(new Error('ValidationException: secret table detail'))(event(), context);
    expect(result.statusCode).toBe(500);
    expect(parse(result)).toStrictEqual({ message: 'Internal server error', request_id: REQUEST_ID });
    expect(result.body).not.toContain('secret');
  });

  it('falls back to Lambda’s request id when the event has none, as the log records do', async () => {
    const result = await failingWith(new CampaignNotFound(3))(
      event({
        requestContext: {
          authorizer: { orgId: '12', scope: 'read-write' },
        } as unknown as APIGatewayProxyEvent['requestContext'],
      }),
      context,
    );
    expect(result.statusCode).toBe(404);
    expect(parse(result).request_id).toBe('lambda-invocation-1');
  });
});

describe('defineEndpoint shaping the response', () => {
  it('answers 500 when the operation gives what the response schema refuses', async () => {
    const refused = async () => ({ created: 'many' }) as never;
    const zodHandler = defineEndpoint(schemas, refused);
    expect((await zodHandler(event({ body: '{"name":"x"}' }), context)).statusCode).toBe(500);
  });
});
