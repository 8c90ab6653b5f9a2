import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { PROVIDER_WEBHOOK_ATTRIBUTES } from '#definitions/queues.ts';
import { WriterSlotLease } from '#domain/writer-slot-lease.ts';
import { logger } from '#platform/logger.ts';
import { count, observed } from '#platform/observability.ts';
import { payloadMapper } from '#providers/webhooks.ts';
import { providerWebhookMessage } from '#schemas/compiled/provider-webhook-message.ts';
import { recordProviderWebhook } from '#use-cases/record-provider-webhook.ts';

/**
 * The provider events queue's consumer: maps each queued webhook with its
 * provider's adapter (shared/providers/<provider>/webhooks.ts) and records what it
 * reports. A record that fails for a reason of ours (the table unreachable)
 * is reported as a batch item failure and comes back; after the queue's
 * receive limit it goes to the dead-letter queue. Events that match nothing
 * are kept as unmatched, not failed. The container records its events with
 * the counter shards of a writer slot no other container holds meanwhile.
 */
/** This container's writer slot, claimed on its first event and kept while it works (docs/scaling.md). */
const writer = new WriterSlotLease();

export const handler = observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const parsed = providerWebhookMessage.safeParse({
      ...Object.fromEntries(
        PROVIDER_WEBHOOK_ATTRIBUTES.map((name) => [name, record.messageAttributes[name]?.stringValue]),
      ),
      body: record.body,
    });
    let payload: unknown;
    try {
      payload = JSON.parse(record.body);
    } catch {
      payload = undefined;
    }
    if (!parsed.success || payload === undefined) {
      // Only the inbound endpoint writes this queue, so this is never a provider's payload.
      logger.error('Discarding a malformed provider events message', { messageId: record.messageId });
      continue;
    }
    const message = parsed.data;
    try {
      const report = await recordProviderWebhook(
        message,
        (await payloadMapper(message.provider))(payload),
        payload,
        writer,
      );
      count('ProviderEventRecorded', report.recorded);
      count('ProviderEventDuplicate', report.duplicate);
      count('ProviderEventUnmatched', report.unmatched);
      if (report.connectionGone) {
        logger.warn('Provider webhook of a deleted connection dropped', {
          orgId: message.orgId,
          connectionId: message.connectionId,
        });
      }
      logger.info('Provider webhook recorded', {
        orgId: message.orgId,
        connectionId: message.connectionId,
        provider: message.provider,
        ...report,
      });
    } catch (error) {
      logger.warn('Recording a provider webhook failed; it will be retried', {
        orgId: message.orgId,
        connectionId: message.connectionId,
        errorName: (error as Error).name,
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
