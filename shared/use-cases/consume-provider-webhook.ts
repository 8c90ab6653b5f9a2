import { PROVIDER_WEBHOOK_ATTRIBUTES } from '#definitions/queues.ts';
import { WriterSlotLease } from '#domain/writer-slot-lease.ts';
import { logger } from '#platform/logger.ts';
import { count } from '#platform/observability.ts';
import { payloadMapper } from '#providers/webhooks.ts';
import { type ProviderWebhookMessage, providerWebhookMessage } from '#schemas/provider-webhook-message.ts';
import type { Consumed } from './queue-message.ts';
import { recordProviderWebhook } from './record-provider-webhook.ts';

/** A queued provider webhook: what the inbound endpoint queued, and the payload parsed. */
export interface QueuedProviderWebhook {
  message: ProviderWebhookMessage;
  payload: unknown;
}

/**
 * The queued webhook of a message's attributes and body; null when it is
 * none (only the inbound endpoint writes this queue, so this is never a
 * provider's payload).
 */
export function queuedProviderWebhookOf(
  attributes: Record<string, { stringValue?: string } | undefined>,
  body: string,
): QueuedProviderWebhook | null {
  const parsed = providerWebhookMessage.safeParse({
    ...Object.fromEntries(PROVIDER_WEBHOOK_ATTRIBUTES.map((name) => [name, attributes[name]?.stringValue])),
    body,
  });
  if (!parsed.success) return null;
  try {
    return { message: parsed.data, payload: JSON.parse(body) };
  } catch {
    return null;
  }
}

/** This container's writer slot, claimed on its first event and kept while it works (docs/scaling.md). */
const writer = new WriterSlotLease();

/**
 * The provider events queue's consumer: maps the queued webhook with its
 * provider's adapter (shared/providers/<provider>/webhooks.ts) and records
 * what it reports (record-provider-webhook.ts). One that fails for a reason
 * of ours (the table unreachable) comes back after the visibility timeout;
 * after the queue's receive limit it goes to the dead-letter queue. Events
 * that match nothing are kept as unmatched, not failed.
 */
export async function consumeProviderWebhook({ message, payload }: QueuedProviderWebhook): Promise<Consumed> {
  const { orgId, connectionId, provider } = message;
  try {
    const report = await recordProviderWebhook(
      message,
      (await payloadMapper(provider))(payload),
      payload,
      writer,
    );
    count('ProviderEventRecorded', report.recorded);
    count('ProviderEventDuplicate', report.duplicate);
    count('ProviderEventUnmatched', report.unmatched);
    if (report.connectionGone) {
      logger.warn('Provider webhook of a deleted connection dropped', { orgId, connectionId });
    }
    logger.info('Provider webhook recorded', { orgId, connectionId, provider, ...report });
    return { kind: 'done' };
  } catch (error) {
    logger.warn('Recording a provider webhook failed; it will be retried', {
      orgId,
      connectionId,
      errorName: (error as Error).name,
    });
    return { kind: 'retry', delaySeconds: null };
  }
}
