import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { buildApp } from 'fauxqs';
import { localCredentials } from '#admin/local-credentials.ts';
import { DEAD_LETTER_RETENTION_DAYS, type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { serviceAwsClient } from '#platform/configured.ts';

/**
 * Local SQS: fauxqs (the SQS JSON protocol with visibility timeouts, long
 * polling and redrive) with every queue of the definitions and its dead-letter
 * queue, and a poller per queue that invokes the consumer the way Lambda's
 * event source mapping does, honouring partial batch failures.
 */

export interface LocalQueues {
  endpoint: string;
  urls: Record<QueueName, string>;
  deadLetterUrls: Record<QueueName, string>;
  stop(): Promise<void>;
}

/**
 * Starts fauxqs on a free loopback port and creates the queues through the
 * SQS API. fauxqs's own starter binds every interface, so its app is built
 * and bound to 127.0.0.1 here instead.
 */
export async function startLocalQueues(region: string): Promise<LocalQueues> {
  const app = buildApp({ logger: false, defaultRegion: region });
  // Any free port, read back once bound (a port probed free beforehand could be taken meanwhile).
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('The local SQS did not bind a port');
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = serviceAwsClient(new SQSClient({ endpoint, region, credentials: localCredentials() }));
  const urls = {} as Record<QueueName, string>;
  const deadLetterUrls = {} as Record<QueueName, string>;
  try {
    for (const [name, definition] of Object.entries(queueDefinitions) as [
      QueueName,
      (typeof queueDefinitions)[QueueName],
    ][]) {
      const deadLetter = await client.send(
        new CreateQueueCommand({
          QueueName: `${name}-dlq`,
          Attributes: {
            MessageRetentionPeriod: String(DEAD_LETTER_RETENTION_DAYS * 86_400),
            ...('maxMessageBytes' in definition && {
              MaximumMessageSize: String(definition.maxMessageBytes),
            }),
          },
        }),
      );
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: deadLetter.QueueUrl, AttributeNames: ['QueueArn'] }),
      );
      const queue = await client.send(
        new CreateQueueCommand({
          QueueName: name,
          Attributes: {
            VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
            ...('maxMessageBytes' in definition && {
              MaximumMessageSize: String(definition.maxMessageBytes),
            }),
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: Attributes?.QueueArn,
              maxReceiveCount: String(definition.maxReceiveCount),
            }),
          },
        }),
      );
      urls[name] = queue.QueueUrl!;
      deadLetterUrls[name] = deadLetter.QueueUrl!;
    }
  } catch (error) {
    await app.close();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, urls, deadLetterUrls, stop: () => app.close() };
}

export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    // As Lambda hands them over: string attributes only (the service sends no others).
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          stringValue: value.StringValue,
          dataType: value.DataType ?? 'String',
          stringListValues: [],
          binaryListValues: [],
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'local',
  };
}

/**
 * Polls a queue and hands batches to its consumer like Lambda's event source
 * mapping: records the consumer reports as failed (or all of them, if it
 * throws) stay on the queue and come back after their visibility timeout.
 */
export function startQueuePoller(
  client: SQSClient,
  queueUrl: string,
  consumer: QueueConsumer,
  options: { batchSize: number; onError?: (error: unknown) => void },
): { stop(): Promise<void> } {
  let running = true;
  // Ends the long poll in flight at `stop()`, which would otherwise wait out its 20 seconds: every stack's
  // stop (each e2e file's, each `npm start` stopped by a test) would pay for it.
  const stopping = new AbortController();
  const queueArn = `arn:aws:sqs:local:000000000000:${queueUrl.split('/').at(-1)}`;
  const loop = (async () => {
    while (running) {
      try {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: options.batchSize,
            // SQS's longest wait, as Lambda's event source mapping polls: fauxqs answers as soon as a message
            // is ready, so a longer wait costs no latency, and an idle queue costs a call every 20 s instead
            // of every second (four queues, in every running stack).
            WaitTimeSeconds: 20,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: stopping.signal },
        );
        if (Messages.length === 0 || !running) continue;
        const records = Messages.map((message) => toRecord(message, queueArn));
        let failed = new Set(records.map((record) => record.messageId));
        try {
          const response = await consumer({ Records: records });
          failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
        } catch (error) {
          options.onError?.(error);
        }
        const done = records.filter((record) => !failed.has(record.messageId));
        if (done.length > 0) {
          await client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((record, index) => ({
                Id: String(index),
                ReceiptHandle: record.receiptHandle,
              })),
            }),
          );
        }
      } catch (error) {
        if (running) {
          options.onError?.(error);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    }
  })();
  return {
    async stop() {
      running = false;
      // Only the wait for messages: a batch being handled is finished first.
      stopping.abort();
      await loop;
    },
  };
}
