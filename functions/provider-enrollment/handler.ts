import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { queueDefinitions } from '#definitions/queues.ts';
import { processProviderWork } from '#domain/enrollment.ts';
import { logger } from '#platform/logger.ts';
import { observed } from '#platform/observability.ts';
import { retryMessageAfter, sendDelayed } from '#platform/queue-retries.ts';
import { backoffSeconds } from '#platform/retry.ts';
import { providerWorkMessage } from '#schemas/compiled/provider-work-message.ts';
import type { ProviderWorkMessage } from '#schemas/provider-work-message.ts';

/**
 * The enrollment queue's consumer (docs/providers.md#enrollment): enrolls
 * scheduled assignments in their provider campaigns and stops leads, one
 * message at a time. Work put off (a 429's Retry-After, the end of the time
 * budget) goes back as a new delayed message, so waiting does not use up
 * receives; a provider that is unavailable makes the message come back with
 * backoff, and its last receive records the enrollments as failed.
 */

/** Time kept free at the end of an invocation to record outcomes and put work back. */
const RESERVE_MS = 20_000;
const RETRY_BASE_SECONDS = 2;
const RETRY_CAP_SECONDS = 15 * 60;
/** SQS's longest message delay. */
const MAX_DELAY_SECONDS = 900;

function parse(record: SQSRecord): ProviderWorkMessage | null {
  try {
    const parsed = providerWorkMessage.safeParse(JSON.parse(record.body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const handler = observed(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const budget =
    context.getRemainingTimeInMillis?.() ?? queueDefinitions.enrollment.consumerTimeoutSeconds * 1000;
  const deadline = Date.now() + budget - RESERVE_MS;
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const message = parse(record);
    if (!message) {
      logger.error('Discarding a malformed enrollment message', { messageId: record.messageId });
      continue;
    }
    const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
    try {
      const outcome = await processProviderWork({ message, receiveCount }, { deadline });
      if (outcome.kind === 'defer') {
        await sendDelayed(
          'enrollment',
          JSON.stringify(outcome.message),
          Math.min(MAX_DELAY_SECONDS, outcome.delaySeconds),
        );
      } else if (outcome.kind === 'retry') {
        await retryLater(record, receiveCount, batchItemFailures);
      }
    } catch (error) {
      logger.warn('Provider work failed; will retry', {
        orgId: message.orgId,
        kind: message.kind,
        receiveCount,
        errorName: error instanceof Error ? error.name : 'Error',
      });
      await retryLater(record, receiveCount, batchItemFailures);
    }
  }
  return { batchItemFailures };
});

async function retryLater(
  record: SQSRecord,
  receiveCount: number,
  failures: SQSBatchResponse['batchItemFailures'],
): Promise<void> {
  failures.push({ itemIdentifier: record.messageId });
  const delaySeconds = backoffSeconds(receiveCount, RETRY_BASE_SECONDS, RETRY_CAP_SECONDS);
  // Without it the queue's visibility timeout still brings the message back.
  await retryMessageAfter('enrollment', record.receiptHandle, delaySeconds).catch(() => undefined);
}
