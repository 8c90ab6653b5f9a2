import type { QueueName } from '#definitions/queues.ts';
import type { ProviderWorkMessage } from '#schemas/provider-work-message.ts';
import type { EnrollTarget } from '#store/assignments.ts';
import { outboxWrite } from '#store/outbox.ts';
import type { TransactItem } from '#store/transactions.ts';

/**
 * The outbox writes that queue work on the enrollment queue, whose messages
 * #schemas/provider-work-message.ts describes; shared/domain/enrollment.ts
 * does the work (docs/providers.md#enrollment).
 * A module of its own: what schedules or stops assignments writes these in its
 * transactions, and needs none of the provider clients, stores and URL checks
 * the work itself does (docs/architecture.md, Bundles).
 */

const QUEUE: QueueName = 'enrollment';

export type { ProviderWorkMessage };

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
