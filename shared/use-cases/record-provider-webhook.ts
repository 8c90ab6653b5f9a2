import { createHash } from 'node:crypto';
import { DomainError } from '#domain/errors.ts';
import { matchActivity } from '#domain/provider-activity-matching.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import type { WriterSlotLease } from '#domain/writer-slot-lease.ts';
import type { MappedPayload, ProviderActivity } from '#providers/activity.ts';
import type { ProviderWebhookMessage } from '#schemas/provider-webhook-message.ts';
import { type ProviderConnectionRecord, providerConnections } from '#store/provider-connections.ts';
import { unmatchedProviderEvents } from '#store/unmatched-provider-events.ts';

/** What recording one queued webhook did, by activity. */
export interface ProviderWebhookReport {
  recorded: number;
  duplicate: number;
  unmatched: number;
  /** The connection was deleted after the payload was queued: nothing was recorded or kept. */
  connectionGone: boolean;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The native event type a payload names, for the unmatched list (`event_type`, `event`, `type`). */
function nativeEventType(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  for (const field of ['event_type', 'event', 'type', 'eventType']) {
    const value = (payload as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 100);
  }
  return null;
}

async function keepUnmatched(
  connection: ProviderConnectionRecord,
  message: ProviderWebhookMessage,
  eventType: string | null,
  reason: string,
  activity?: ProviderActivity,
): Promise<void> {
  // The same key for the same event (or payload) queued once: an SQS redelivery rewrites its own record.
  const key = hashOf(activity ? activity.eventId : message.body);
  await unmatchedProviderEvents.put(connection.orgId, key, {
    connectionId: connection.connectionId,
    receivedAt: message.receivedAt,
    eventType,
    eventId: activity?.eventId ?? null,
    kind: activity?.kind ?? null,
    reason,
    campaignExternalId: activity?.campaignExternalId ?? null,
    leadEmail: activity?.lead.email ?? null,
    leadLinkedinUrl: activity?.lead.linkedinUrl ?? null,
  });
}

/**
 * 1. Read the connection; one deleted since the payload was queued ends here (`connectionGone`).
 * 2. A payload the provider's adapter mapped to nothing is kept as unmatched, with why.
 * 3. Each activity is matched to an assignment (provider-activity-matching.ts) and recorded
 *    through the same operation as `events record`: a replay is a duplicate and changes nothing.
 *    The counters go to the shards of the `writer`'s slot, when it holds one (writer-slot-lease.ts).
 * 4. An activity that matches nothing, or that the domain refuses (a transition its lifecycle
 *    does not allow), is kept as unmatched with the reason. Anything else (the table
 *    unreachable) is thrown, so the queue delivers the payload again.
 *
 * The provider events queue's consumer, after mapping the payload with the provider's adapter.
 */
export async function recordProviderWebhook(
  message: ProviderWebhookMessage,
  mapped: MappedPayload,
  payload: unknown,
  writer?: WriterSlotLease,
): Promise<ProviderWebhookReport> {
  const report: ProviderWebhookReport = { recorded: 0, duplicate: 0, unmatched: 0, connectionGone: false };
  const connection = await providerConnections.get(message.orgId, message.connectionId);
  if (!connection) return { ...report, connectionGone: true };
  const eventType = nativeEventType(payload);
  if ('ignored' in mapped) {
    await keepUnmatched(connection, message, eventType, mapped.ignored);
    report.unmatched += 1;
    return report;
  }
  for (const activity of mapped.activities) {
    const match = await matchActivity(connection, activity, message.receivedAt);
    if ('unmatched' in match) {
      await keepUnmatched(connection, message, eventType, match.unmatched, activity);
      report.unmatched += 1;
      continue;
    }
    try {
      const { outcome } = await recordProviderEvent(connection.orgId, match.event, {
        replyThread: activity.replyThread,
        writerSlot: writer ? await writer.slot() : null,
      });
      if (outcome === 'applied') report.recorded += 1;
      else report.duplicate += 1;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await keepUnmatched(connection, message, eventType, error.message, activity);
      report.unmatched += 1;
    }
  }
  return report;
}
