import { dynamo } from '#platform/dynamodb-client.ts';

/** One DynamoDB API call seen by `countRequests`. */
export interface ObservedCall {
  /** The operation name, e.g. `PutItem`. */
  operation: string;
  /** The command's input as the service passed it (document-client commands: plain values, not marshalled). */
  input: Record<string, unknown>;
  /** Whether DynamoDB accepted it; a write refused by its condition (or any failed call) changed nothing. */
  succeeded: boolean;
  /**
   * When it was sent and when its answer (or failure) came, as places in the one sequence of the
   * calls' sendings and answers (0, 1, …): which calls were in flight together, without reading clocks.
   */
  sent: number;
  answered: number | null;
}

/** Whether every one of `calls` was sent before any of them was answered: they went out together. */
export const sentTogether = (...calls: ObservedCall[]): boolean =>
  calls.every((call) => calls.every((other) => other.answered === null || call.sent < other.answered));

/** What `countRequests` observed while its function ran. */
export interface RequestCount<T> {
  result: T;
  /** DynamoDB API calls sent through the shared client (SDK retries of one call count once). */
  count: number;
  /** The same calls by DynamoDB operation name, e.g. `{ BatchGetItem: 1, TransactWriteItems: 1 }`. */
  byCommand: Record<string, number>;
  /** The same calls in the order they were sent, with their inputs and outcomes. */
  calls: ObservedCall[];
}

let installed = 0;

/**
 * Runs `fn` and counts the DynamoDB API calls it makes through the service's
 * one client (`#platform/dynamodb-client.ts`), with a middleware added to the client's
 * stack for the duration and removed afterwards, also when `fn` throws.
 * Every call made through the client meanwhile is counted, so run nothing
 * concurrently with `fn` that is not part of what is measured.
 */
export async function countRequests<T>(fn: () => Promise<T>): Promise<RequestCount<T>> {
  const name = `test-request-counter-${++installed}`;
  const byCommand: Record<string, number> = {};
  const calls: ObservedCall[] = [];
  let count = 0;
  let events = 0;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      byCommand[operation] = (byCommand[operation] ?? 0) + 1;
      count += 1;
      const call: ObservedCall = {
        operation,
        input: args.input as Record<string, unknown>,
        succeeded: false,
        sent: events++,
        answered: null,
      };
      calls.push(call);
      try {
        const output = await next(args);
        call.succeeded = true;
        return output;
      } finally {
        call.answered = events++;
      }
    },
    { step: 'initialize', name, priority: 'high' },
  );
  try {
    const result = await fn();
    return { result, count, byCommand, calls };
  } finally {
    dynamo.middlewareStack.remove(name);
  }
}
