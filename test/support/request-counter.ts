import { dynamo } from '#shared/db/client.ts';

/** What `countRequests` observed while its function ran. */
export interface RequestCount<T> {
  result: T;
  /** DynamoDB API calls sent through the shared client (SDK retries of one call count once). */
  count: number;
  /** The same calls by DynamoDB operation name, e.g. `{ BatchGetItem: 1, TransactWriteItems: 1 }`. */
  byCommand: Record<string, number>;
}

let installed = 0;

/**
 * Runs `fn` and counts the DynamoDB API calls it makes through the service's
 * one client (`#shared/db/client.ts`), with a middleware added to the client's
 * stack for the duration and removed afterwards, also when `fn` throws.
 * Every call made through the client meanwhile is counted, so run nothing
 * concurrently with `fn` that is not part of what is measured.
 */
export async function countRequests<T>(fn: () => Promise<T>): Promise<RequestCount<T>> {
  const name = `test-request-counter-${++installed}`;
  const byCommand: Record<string, number> = {};
  let count = 0;
  dynamo.middlewareStack.add(
    (next, context) => (args) => {
      const operation = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      byCommand[operation] = (byCommand[operation] ?? 0) + 1;
      count += 1;
      return next(args);
    },
    { step: 'initialize', name, priority: 'high' },
  );
  try {
    const result = await fn();
    return { result, count, byCommand };
  } finally {
    dynamo.middlewareStack.remove(name);
  }
}
