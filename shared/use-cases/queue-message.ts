/**
 * What the use cases that consume a queue's messages answer (the SQS side:
 * shared/api/queues/consumer.ts).
 */

/** What a use case made of one message. */
export type Consumed =
  | { kind: 'done' }
  /** It comes back after `delaySeconds` (null: after the queue's visibility timeout); its receive counts. */
  | { kind: 'retry'; delaySeconds: number | null };

/** The delivery of a message: its receive (1 the first time), and the invocation's start and end (when told). */
export interface Delivery {
  attempt: number;
  invokedAt: number;
  /** Unknown where the invoker does not say (the local stack invokes with the event alone). */
  invocationEndsAt: number | undefined;
}

export const done: Consumed = { kind: 'done' };
export const retryAfter = (delaySeconds: number | null): Consumed => ({ kind: 'retry', delaySeconds });
