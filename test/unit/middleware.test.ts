import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineHttpHandler } from '#api/http/endpoint.ts';
import { CampaignNotFound } from '#domain/errors.ts';
import { logger } from '#platform/logger.ts';
import { count, lambdaHandler, metrics } from '#platform/observability.ts';
import { loggingAt, logRecordsOf, metricRecordsOf } from '../support/observability.ts';
import { contractMembers } from '../support/problem.ts';

/**
 * The service's middlewares on @middy/core (shared/platform/observability.ts,
 * shared/api/http/endpoint.ts): the order they run in, the errors they answer,
 * and middy's early timeout.
 */

const quietLevel = logger.getLevelName();

afterEach(() => {
  logger.setLogLevel(quietLevel);
  logger.resetKeys();
  vi.restoreAllMocks();
});

const httpEvent = (resource = '/public/v1/campaigns/{id}'): APIGatewayProxyEvent =>
  ({
    resource,
    httpMethod: 'GET',
    headers: {},
    pathParameters: { id: '7' },
    body: null,
    requestContext: { requestId: 'gw-req-1', authorizer: { orgId: '12', scope: 'read' } },
  }) as unknown as APIGatewayProxyEvent;

/** A context whose invocation ends in `ms`: Lambda's, for middy's timeout. */
const endingIn = (ms: number) => ({ awsRequestId: 'aws-1', getRemainingTimeInMillis: () => ms }) as Context;

/** A handler's work that never ends: only the timeout answers. */
const never = () => new Promise<never>(() => undefined);

describe('an HTTP handler on middy', () => {
  it('maps a domain error to its status and {message}, and anything else to an opaque 500 logged with the request’s keys', async () => {
    const notFound = defineHttpHandler(async () => {
      throw new CampaignNotFound(7);
    });
    const response = await notFound(httpEvent(), endingIn(10_000));
    expect(response.statusCode).toBe(404);
    expect(contractMembers(response.statusCode, response.body)).toEqual({ message: 'Campaign 7 not found' });

    loggingAt('ERROR');
    const failing = defineHttpHandler(async () => {
      throw new TypeError('a fault of the service');
    });
    let failed: Awaited<ReturnType<typeof failing>> | undefined;
    const records = await logRecordsOf(async () => {
      failed = await failing(httpEvent(), endingIn(10_000));
    });
    expect(failed?.statusCode).toBe(500);
    expect(contractMembers(failed!.statusCode, failed!.body)).toEqual({ message: 'Internal server error' });
    expect(records).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'Unhandled error',
        errorName: 'TypeError',
        requestId: 'gw-req-1',
        orgId: '12',
        route: '/public/v1/campaigns/{id}',
      }),
    ]);
    // The request's keys end with it.
    const [next] = await logRecordsOf(async () => logger.error('between requests'));
    expect(next).not.toHaveProperty('requestId');
  });

  it('answers a handler that would outlive its invocation with a 500 before the deadline, through the same error mapping', async () => {
    const slow = defineHttpHandler(never);
    const response = await slow(httpEvent(), endingIn(30));
    expect(response.statusCode).toBe(500);
    expect(contractMembers(response.statusCode, response.body)).toEqual({ message: 'Internal server error' });
  });

  it('publishes the invocation’s counts when its error was answered', async () => {
    const counting = defineHttpHandler(async () => {
      count('ProviderWebhookRejected');
      throw new CampaignNotFound(7);
    });
    const records = await metricRecordsOf(() => counting(httpEvent(), endingIn(10_000)));
    expect(records).toEqual([expect.objectContaining({ ProviderWebhookRejected: 1 })]);
  });
});

describe('a Lambda handler on middy', () => {
  it('fails with middy’s TimeoutError just before the deadline, and runs to its end without one', async () => {
    const slow = lambdaHandler(async (_event: undefined) => never());
    await expect(slow(undefined, endingIn(30))).rejects.toMatchObject({ name: 'TimeoutError' });
    // The local stack's event sources and the tests invoke with the event alone: no deadline.
    const quick = lambdaHandler(async (event: string) => `${event} done`);
    expect(await quick('work')).toBe('work done');
  });

  it('runs the given middlewares after the observability ones: their onError first, the metrics published after', async () => {
    const steps: string[] = [];
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    publish.mockImplementation(() => {
      steps.push('metrics published');
      return metrics;
    });
    const handler = lambdaHandler(
      async (_event: undefined): Promise<string> => {
        steps.push('handler');
        throw new Error('failed');
      },
      [
        {
          before: () => {
            steps.push('a.before');
          },
          onError: (request) => {
            steps.push(`a.onError:${request.error?.message}`);
            request.response = 'answered';
          },
        },
        {
          before: () => {
            steps.push('b.before');
          },
          onError: () => {
            steps.push('b.onError');
          },
        },
      ],
    );
    expect(await handler(undefined)).toBe('answered');
    expect(steps).toEqual([
      'a.before',
      'b.before',
      'handler',
      'b.onError',
      'a.onError:failed',
      'metrics published',
    ]);
  });
});
