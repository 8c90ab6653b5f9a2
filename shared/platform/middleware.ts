import type { Context } from 'aws-lambda';

/**
 * The middleware runner every handler is built with (observability.ts,
 * shared/api/http/endpoint.ts), in the semantics of @middy/core 6, which the
 * service used before: only what the service uses of it, without its 2.5 KiB
 * in every bundle (streamed responses, plugins, early responses).
 */

/** One invocation as its middlewares see it. */
export interface Invocation<Event, Result> {
  event: Event;
  context: Context;
  /** The handler's result, which `after` may change and `onError` may set. */
  response: Result | undefined;
  /** What the handler or a middleware threw, for `onError`. */
  error: Error | undefined;
}

type Step<Event, Result> = (invocation: Invocation<Event, Result>) => void | Promise<void>;

/** What a middleware does before the handler, after it, and when something threw. */
export interface Middleware<Event, Result> {
  before?: Step<Event, Result>;
  after?: Step<Event, Result>;
  onError?: Step<Event, Result>;
}

/** How long before the invocation's deadline the handler is given up on, so that the middlewares can still answer. */
const TIMEOUT_MARGIN_MS = 5;

/** The error a handler that would outlive its invocation ends with (middy's name for it). */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * Resolves with the handler's result, or rejects with a TimeoutError
 * TIMEOUT_MARGIN_MS before the invocation's deadline. Lambda's context has
 * one; the local stack's event sources and the tests call without it.
 */
async function beforeDeadline<Result>(result: Promise<Result>, context: Context): Promise<Result> {
  if (typeof context.getRemainingTimeInMillis !== 'function') return result;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new TimeoutError('The operation was aborted: the invocation is about to time out')),
      context.getRemainingTimeInMillis() - TIMEOUT_MARGIN_MS,
    );
  });
  try {
    return await Promise.race([result, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `handler` with `middlewares` around it: each `before` in order, the
 * handler (given up on just before the invocation's deadline), each `after`
 * in reverse order. When any of them throws, each `onError` runs in reverse
 * order; the invocation answers with the `response` one of them set, else
 * it fails with the error (or with what an `onError` threw, which carries the
 * first error as `originalError`).
 */
export function withMiddlewares<Event, Result>(
  middlewares: readonly Middleware<Event, Result>[],
  handler: (event: Event, context: Context) => Promise<Result>,
): (event: Event, context: Context) => Promise<Result> {
  const before = middlewares.flatMap(({ before }) => (before ? [before] : []));
  const after = middlewares.flatMap(({ after }) => (after ? [after] : [])).reverse();
  const onError = middlewares.flatMap(({ onError }) => (onError ? [onError] : [])).reverse();
  return async (event, context) => {
    const invocation: Invocation<Event, Result> = { event, context, response: undefined, error: undefined };
    try {
      for (const step of before) await step(invocation);
      invocation.response = await beforeDeadline(handler(event, context), context);
      for (const step of after) await step(invocation);
    } catch (error) {
      invocation.response = undefined;
      invocation.error = error as Error;
      try {
        for (const step of onError) await step(invocation);
      } catch (unhandled) {
        (unhandled as Error & { originalError?: unknown }).originalError = invocation.error;
        throw unhandled;
      }
      if (invocation.response === undefined) throw invocation.error;
    }
    return invocation.response as Result;
  };
}
