import * as z from 'zod/mini';
import type { QueueName } from '#definitions/queues.ts';
import type { EnrollTarget } from '#store/assignments.ts';
import { outboxWrite } from '#store/outbox.ts';
import type { TransactItem } from '#store/transactions.ts';

/**
 * What the enrollment queue carries, and the outbox writes that queue work on
 * it (shared/domain/enrollment.ts does the work; docs/providers.md#enrollment).
 * A module of its own: what schedules or stops assignments writes these in its
 * transactions, and needs none of the provider clients, stores and URL checks
 * the work itself does (docs/architecture.md, Bundles).
 */

// The schema is built in a pure-annotated closure: a bundle keeps it only if its function uses it
// (esbuild cannot tell that zod's builders have no side effects; docs/architecture.md, Bundles).

const QUEUE: QueueName = 'enrollment';

/** What the enrollment queue carries. */
export const providerWorkMessage = /* @__PURE__ */ (() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('enroll'),
      orgId: z.number(),
      assignmentIds: z.array(z.number()).check(z.minLength(1)),
    }),
    z.object({
      kind: z.literal('stop'),
      orgId: z.number(),
      assignmentIds: z.array(z.number()).check(z.minLength(1)),
      reason: z.string(),
    }),
    z.object({ kind: z.literal('stop-domain'), orgId: z.number(), domain: z.string() }),
  ]))();
export type ProviderWorkMessage = z.infer<typeof providerWorkMessage>;

/** The outbox write that enrolls these (newly scheduled) assignments. */
export const enrollmentOutboxWrite = (orgId: number, assignmentIds: readonly number[]): TransactItem =>
  outboxWrite(orgId, QUEUE, {
    kind: 'enroll',
    orgId,
    assignmentIds: [...assignmentIds],
  } satisfies ProviderWorkMessage);

/** The outbox write that stops these assignments' leads at their providers (those enrolled). */
export const stopOutboxWrite = (
  orgId: number,
  assignmentIds: readonly number[],
  reason: string,
): TransactItem =>
  outboxWrite(orgId, QUEUE, {
    kind: 'stop',
    orgId,
    assignmentIds: [...assignmentIds],
    reason,
  } satisfies ProviderWorkMessage);

/** The outbox write that stops every lead enrolled under an excluded domain. */
export const stopDomainOutboxWrite = (orgId: number, domain: string): TransactItem =>
  outboxWrite(orgId, QUEUE, { kind: 'stop-domain', orgId, domain } satisfies ProviderWorkMessage);

/** Where a sequence's assignments are enrolled: its provider campaign on its connection, when it has both. */
export function enrollTargetOf(sequence: {
  external_id?: string | null;
  connection_id?: number | null;
}): EnrollTarget | null {
  return sequence.external_id && sequence.connection_id
    ? { connectionId: sequence.connection_id, externalId: sequence.external_id }
    : null;
}
