import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type Middleware, TimeoutError, withMiddlewares } from '#platform/middleware.ts';

/** The middleware runner (shared/platform/middleware.ts), in the order and error handling of @middy/core 6. */

const context = {} as Context;

/** A middleware that records each of its steps in `steps` under `name`. */
const recording = (
  steps: string[],
  name: string,
  extra: Middleware<string, string> = {},
): Middleware<string, string> => ({
  before: async () => {
    steps.push(`${name}.before`);
  },
  after: (invocation) => {
    steps.push(`${name}.after:${invocation.response}`);
  },
  onError: (invocation) => {
    steps.push(`${name}.onError:${invocation.error?.message}`);
  },
  ...extra,
});

describe('the middleware runner', () => {
  it('runs each before in order, the handler, then each after in reverse order, which may change the response', async () => {
    const steps: string[] = [];
    const handler = withMiddlewares(
      [
        recording(steps, 'a'),
        recording(steps, 'b', {
          after: (invocation) => {
            steps.push(`b.after:${invocation.response}`);
            invocation.response = `${invocation.response}!`;
          },
        }),
      ],
      async (event) => {
        steps.push(`handler:${event}`);
        return 'result';
      },
    );
    expect(await handler('event', context)).toBe('result!');
    expect(steps).toEqual(['a.before', 'b.before', 'handler:event', 'b.after:result', 'a.after:result!']);
  });

  it('runs each onError in reverse order on a failure, and answers with the response one of them sets', async () => {
    const steps: string[] = [];
    const answering: Middleware<string, string> = {
      onError: (invocation) => {
        steps.push(`answer:${invocation.error?.message}`);
        invocation.response = 'answered';
      },
    };
    const handler = withMiddlewares([recording(steps, 'a'), answering, recording(steps, 'c')], async () => {
      throw new Error('failed');
    });
    expect(await handler('event', context)).toBe('answered');
    expect(steps).toEqual(['a.before', 'c.before', 'c.onError:failed', 'answer:failed', 'a.onError:failed']);
  });

  it('rethrows an error no onError answers, and one an after throws goes through onError with the response reset', async () => {
    const steps: string[] = [];
    const failingAfter: Middleware<string, string> = {
      after: () => {
        throw new Error('after failed');
      },
      onError: (invocation) => {
        steps.push(`onError:${invocation.error?.message}:${invocation.response}`);
      },
    };
    const handler = withMiddlewares([failingAfter], async () => 'result');
    await expect(handler('event', context)).rejects.toThrow('after failed');
    expect(steps).toEqual(['onError:after failed:undefined']);
  });

  it('fails with what an onError throws, carrying the first error', async () => {
    const first = new Error('first');
    const handler = withMiddlewares<string, string>(
      [
        {
          onError: () => {
            throw new Error('second');
          },
        },
      ],
      async () => {
        throw first;
      },
    );
    await expect(handler('event', context)).rejects.toMatchObject({
      message: 'second',
      originalError: first,
    });
  });

  it('gives up on the handler just before the invocation’s deadline, as an error the middlewares answer', async () => {
    const handler = withMiddlewares<string, string>(
      [
        {
          onError: (invocation) => {
            invocation.response = invocation.error instanceof TimeoutError ? 'timed out' : 'other';
          },
        },
      ],
      () => new Promise((resolve) => setTimeout(() => resolve('too late'), 1_000)),
    );
    const lambdaContext = { getRemainingTimeInMillis: () => 30 } as Context;
    const started = Date.now();
    expect(await handler('event', lambdaContext)).toBe('timed out');
    expect(Date.now() - started).toBeLessThan(500);
    // Without a deadline (the local stack, the tests) the handler runs to its end.
    const quick = withMiddlewares<string, string>([], async () => 'done');
    expect(await quick('event', context)).toBe('done');
  });
});
