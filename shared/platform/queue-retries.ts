import type { QueueName } from '#definitions/queues.ts';

/**
 * What a queue's consumer asks of its own queue now and then: to bring a
 * message back later (a retry at the consumer's pace), or to put work back
 * with a delay. Only a failure or deferred work needs it, so the SQS client
 * (the SDK's, about 27 KiB) is loaded by the first such call rather than by
 * every cold start of the consumer.
 */

async function queueClient() {
  const [commands, client] = await Promise.all([import('@aws-sdk/client-sqs'), import('./queue-client.ts')]);
  return { ...commands, ...client };
}

/** Makes a received message visible again in `seconds` (ChangeMessageVisibility). */
export async function retryMessageAfter(
  queue: QueueName,
  receiptHandle: string,
  seconds: number,
): Promise<void> {
  const { sqs, queueUrl, ChangeMessageVisibilityCommand } = await queueClient();
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl(queue),
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: seconds,
    }),
  );
}

/** Sends `body` (JSON text) to the queue, to be received in `delaySeconds` (SQS allows up to 900). */
export async function sendDelayed(queue: QueueName, body: string, delaySeconds: number): Promise<void> {
  const { sqs, queueUrl, queueMessageBody, SendMessageCommand } = await queueClient();
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl(queue),
      MessageBody: queueMessageBody(body),
      DelaySeconds: delaySeconds,
    }),
  );
}
