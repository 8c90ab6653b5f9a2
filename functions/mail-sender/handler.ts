import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { MailJob } from '#domain/replies.ts';
import { deliverReply } from '#domain/reply-delivery.ts';
import { configuration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import { configuredMailTransport } from '#platform/mail-transport.ts';
import { count, observed } from '#platform/observability.ts';
import { retryMessageAfter } from '#platform/queue-retries.ts';
import { backoffSeconds } from '#platform/retry.ts';

const RETRY_CAP_SECONDS = 15 * 60;

function parseJob(record: SQSRecord): MailJob | null {
  try {
    const job = JSON.parse(record.body) as MailJob;
    return Number.isSafeInteger(job.orgId) && Number.isSafeInteger(job.messageId) ? job : null;
  } catch {
    return null;
  }
}

/**
 * The mail sender: sends queued replies one record at a time and reports only
 * the records that failed (partial batch response). A failed record's next
 * attempt is pushed back with exponential backoff; after the queue's receive
 * limit it goes to the dead-letter queue.
 */
export const handler = observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const job = parseJob(record);
    if (!job) {
      // A message that can never be delivered is dropped, not retried forever.
      logger.error('Discarding a malformed mail job', { messageId: record.messageId });
      continue;
    }
    try {
      const outcome = await deliverReply(job, configuredMailTransport(), configuration().mail);
      logger.info('Mail job done', { orgId: job.orgId, replyMessageId: job.messageId, outcome });
      if (outcome === 'sent') count('ReplySent');
    } catch (error) {
      const attempt = Number(record.attributes.ApproximateReceiveCount ?? 1);
      logger.warn('Mail delivery failed; will retry', {
        orgId: job.orgId,
        replyMessageId: job.messageId,
        attempt,
        errorName: (error as Error).name,
      });
      count('ReplyRetried');
      batchItemFailures.push({ itemIdentifier: record.messageId });
      const delaySeconds = backoffSeconds(attempt, configuration().mail.retryBaseSeconds, RETRY_CAP_SECONDS);
      // Without it the queue's own visibility timeout still brings the message back.
      await retryMessageAfter('mail', record.receiptHandle, delaySeconds).catch(() => undefined);
    }
  }
  return { batchItemFailures };
});
