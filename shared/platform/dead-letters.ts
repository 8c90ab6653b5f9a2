import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
} from '@aws-sdk/client-sqs';
import type { QueueName } from '#definitions/queues.ts';
import { deadLetterQueueUrl, queueUrl, sqs } from './queue-client.ts';

/**
 * Redrive: moves every message of a queue's dead-letter queue back to the
 * queue, where its consumer picks it up with a fresh receive count (for
 * webhooks, another full retry schedule). A message is deleted from the
 * dead-letter queue only once it is on the queue; one that could not be moved
 * reappears there after a minute. Works the same on fauxqs and SQS.
 */
export async function redriveDeadLetters(queue: QueueName): Promise<{ moved: number }> {
  const source = deadLetterQueueUrl(queue);
  const target = queueUrl(queue);
  let moved = 0;
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: source,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 60,
      }),
    );
    if (Messages.length === 0) return { moved };
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: target,
        Entries: Messages.map((message, index) => ({ Id: String(index), MessageBody: message.Body ?? '' })),
      }),
    );
    const sentIds = new Set((sent.Successful ?? []).map((entry) => entry.Id));
    const done = Messages.filter((_, index) => sentIds.has(String(index)));
    if (done.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: source,
          Entries: done.map((message, index) => ({
            Id: String(index),
            ReceiptHandle: message.ReceiptHandle!,
          })),
        }),
      );
    }
    moved += done.length;
    if ((sent.Failed ?? []).length > 0)
      throw new Error(`${sent.Failed!.length} dead letters could not be moved; run again`);
  }
}
