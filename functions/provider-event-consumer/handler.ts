import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '#platform/logger.ts';
import { observed } from '#platform/observability.ts';
import { consumeProviderWebhook, queuedProviderWebhookOf } from '#use-cases/consume-provider-webhook.ts';

/**
 * The provider events queue's consumer (shared/use-cases/consume-provider-webhook.ts). Its
 * SQS side is written out rather than defineQueueConsumer's: it never paces a retry, and the
 * generic one's few hundred bytes would take it past the bundle bound (docs/architecture.md).
 */
export const handler = observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const queued = queuedProviderWebhookOf(record.messageAttributes, record.body);
    if (!queued) {
      logger.error('Discarding a malformed provider events message', { messageId: record.messageId });
      continue;
    }
    const consumed = await consumeProviderWebhook(queued);
    if (consumed.kind !== 'done') batchItemFailures.push({ itemIdentifier: record.messageId });
  }
  return { batchItemFailures };
});
