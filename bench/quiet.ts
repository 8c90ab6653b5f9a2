import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { sqs } from '#platform/queue-client.ts';
import { round } from './load.ts';

/**
 * Waits until the stack has no queued work left (mail and webhook queues
 * empty, nothing in flight, two checks in a row so the stream relay, which
 * polls every 100 ms, has brought anything still in the table's stream), so the work one
 * endpoint queued does not weigh on the next one's figures. Returns the
 * seconds it took.
 */
export async function waitForQuiet(queueUrls: string[], timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  let quietChecks = 0;
  while (quietChecks < 2) {
    const pending = await Promise.all(
      queueUrls.map(async (QueueUrl) => {
        const { Attributes = {} } = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        );
        return (
          Number(Attributes.ApproximateNumberOfMessages) +
          Number(Attributes.ApproximateNumberOfMessagesNotVisible)
        );
      }),
    );
    quietChecks = pending.every((count) => count === 0) ? quietChecks + 1 : 0;
    if (performance.now() - started > timeoutMs)
      throw new Error(`Queues still busy after ${timeoutMs} ms: ${pending}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return round((performance.now() - started) / 1000, 1);
}
