import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { createOrganization } from '#domain/organizations.ts';

/**
 * The endpoint wrapper's `Idempotency-Key`, against DynamoDB Local, with an
 * operation of the test's own so that it can fail or be held part way: a 5xx
 * releases the key (the client may retry), and a retry while the first request
 * is still running is 409 and runs nothing.
 */

const endpoint = {
  path: z.object({ id: z.string() }),
  body: z.object({ note: z.string() }),
  response: z.object({ runs: z.number() }),
};

function event(
  orgId: number,
  method: string,
  key: string | undefined,
  body: unknown,
  route = { resource: '/public/v1/things/{id}', path: '/public/v1/things/1' },
): APIGatewayProxyEvent {
  return {
    ...route,
    httpMethod: method,
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
    pathParameters: { id: '1' },
    queryStringParameters: null,
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: {
      requestId: `r-${Math.random()}`,
      authorizer: { orgId: String(orgId), scope: 'read-write' },
    },
  } as unknown as APIGatewayProxyEvent;
}

const context = { awsRequestId: 'test' } as Context;

describe('Idempotency-Key in the endpoint wrapper', () => {
  it('releases the key when the operation fails with a 5xx, so the retry runs', async () => {
    const { orgId } = await createOrganization('Failing Inc');
    let runs = 0;
    const handler = defineEndpoint(endpoint, async () => {
      runs += 1;
      if (runs === 1) throw new Error('the table went away');
      return { runs };
    });
    const failed = await handler(event(orgId, 'POST', 'fails-once', { note: 'a' }), context);
    expect(failed.statusCode).toBe(500);
    const retried = await handler(event(orgId, 'POST', 'fails-once', { note: 'a' }), context);
    expect({ status: retried.statusCode, body: JSON.parse(retried.body) }).toEqual({
      status: 200,
      body: { runs: 2 },
    });
    const replayed = await handler(event(orgId, 'POST', 'fails-once', { note: 'a' }), context);
    expect(replayed.body).toBe(retried.body);
    expect(replayed.headers?.['Idempotent-Replayed']).toBe('true');
    expect(runs).toBe(2);
  });

  it('answers 409 to a retry while the first request runs, without running it; then replays', async () => {
    const { orgId } = await createOrganization('Slow Inc');
    let runs = 0;
    let finish: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const handler = defineEndpoint(endpoint, async () => {
      runs += 1;
      started();
      await held;
      return { runs };
    });
    const first = handler(event(orgId, 'PATCH', 'slow-1', { note: 'a' }), context);
    await running;
    const during = await handler(event(orgId, 'PATCH', 'slow-1', { note: 'a' }), context);
    expect(during.statusCode).toBe(409);
    expect(JSON.parse(during.body).message).toBe('A request with this Idempotency-Key is still in progress');
    finish();
    expect((await first).statusCode).toBe(200);
    const after = await handler(event(orgId, 'PATCH', 'slow-1', { note: 'a' }), context);
    expect(after.statusCode).toBe(200);
    expect(after.headers?.['Idempotent-Replayed']).toBe('true');
    expect(runs).toBe(1);
  });

  it('runs nothing for a route that answers a credential but was built without a sealer: it fails closed', async () => {
    const { orgId } = await createOrganization('Forgetful Inc');
    let runs = 0;
    const rotate = {
      resource: '/public/v1/webhooks/{id}/rotate-secret',
      path: '/public/v1/webhooks/1/rotate-secret',
    };
    const handler = defineEndpoint(endpoint, async () => {
      runs += 1;
      return { runs };
    });
    const answer = await handler(event(orgId, 'POST', 'no-sealer', { note: 'a' }, rotate), context);
    expect(answer.statusCode).toBe(500);
    expect(runs).toBe(0);
    // Without a key nothing is kept, so the route answers as it always did.
    expect((await handler(event(orgId, 'POST', undefined, { note: 'a' }, rotate), context)).statusCode).toBe(
      200,
    );
  });
});
