import { dynamo } from '#platform/dynamodb-client.ts';

/**
 * Fault injection for the service's one DynamoDB client (`#platform/dynamodb-client.ts`,
 * the client the in-process handlers, relay and consumers use). Two
 * middlewares are added for the duration: one numbers every logical call
 * (SDK retries of a call share its number), the other sits inside the SDK's
 * retry loop and asks `decide` about every attempt, so a fault can be a
 * throttle the SDK retries, an error every attempt sees, or a write that
 * applied but whose answer was lost.
 */

/** One attempt of one call, as `decide` sees it. */
export interface DynamoAttempt {
  /** The DynamoDB operation, e.g. `TransactWriteItems`. */
  command: string;
  /** The request as sent (marshalled), serialized, to match keys against (`ORG#12"`). */
  request: string;
  /** 1-based number of the call among those made while the injector is installed. */
  call: number;
  /** 1-based number of this operation among the calls of the same operation. */
  callOfCommand: number;
  /** 1-based attempt of the call (the SDK retries throttles and 5xx). */
  attempt: number;
}

/** What to do with an attempt: nothing, fail it before it is sent, or send it and then fail. */
export type FaultDecision = undefined | { before: Error } | { after: Error };

export interface FaultInjector {
  /** Every attempt seen, in order, with whether it was failed. */
  attempts: (DynamoAttempt & { failed: 'before' | 'after' | null })[];
  remove(): void;
}

interface CallState {
  command: string;
  call: number;
  callOfCommand: number;
  attempts: number;
}

const CALL_STATE = Symbol('faultCall');

/** The SDK's per-call context, which every step of one call shares. */
interface FaultContext {
  commandName?: string;
  [CALL_STATE]?: CallState;
}

let installed = 0;

/** Installs `decide` on the shared client until `remove()` (also call it in a `finally`). */
export function injectDynamoFaults(decide: (attempt: DynamoAttempt) => FaultDecision): FaultInjector {
  const id = ++installed;
  const numbering = `fault-numbering-${id}`;
  const failing = `fault-injection-${id}`;
  const perCommand = new Map<string, number>();
  let calls = 0;
  const attempts: FaultInjector['attempts'] = [];

  dynamo.middlewareStack.add(
    (next, rawContext) => (args) => {
      const context = rawContext as FaultContext;
      const command = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      const callOfCommand = (perCommand.get(command) ?? 0) + 1;
      perCommand.set(command, callOfCommand);
      context[CALL_STATE] = { command, call: ++calls, callOfCommand, attempts: 0 };
      return next(args);
    },
    { step: 'initialize', name: numbering, priority: 'high' },
  );
  // The deserialize step runs inside the retry middleware (finalizeRequest), once per attempt.
  dynamo.middlewareStack.add(
    (next, rawContext) => async (args) => {
      const state = (rawContext as FaultContext)[CALL_STATE];
      if (!state) return next(args);
      state.attempts += 1;
      const attempt: DynamoAttempt = {
        command: state.command,
        request: JSON.stringify((args as { input?: unknown }).input ?? null),
        call: state.call,
        callOfCommand: state.callOfCommand,
        attempt: state.attempts,
      };
      const decision = decide(attempt);
      attempts.push({
        ...attempt,
        failed: decision === undefined ? null : 'before' in decision ? 'before' : 'after',
      });
      if (decision && 'before' in decision) throw decision.before;
      const result = await next(args);
      if (decision && 'after' in decision) throw decision.after;
      return result;
    },
    { step: 'deserialize', name: failing, priority: 'high' },
  );
  return {
    attempts,
    remove() {
      dynamo.middlewareStack.remove(numbering);
      dynamo.middlewareStack.remove(failing);
    },
  };
}

/** Whether a serialized request touches the organization's items (`ORG#7"` or `ORG#7#…`, never `ORG#70`). */
export const touchesOrganization = (request: string, orgId: number): boolean =>
  new RegExp(`ORG#${orgId}(#|\\\\?")`).test(request);
