import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { logger } from '#platform/logger.ts';
import { queueUrl, sqs } from '#platform/queue-client.ts';
import { OUTBOX_TYPE, WEBHOOK_EVENT_KIND } from '#store/outbox.ts';
import { fanOutWebhookEvent } from './webhook-deliveries.ts';
import { listWebhooks, type WebhookRecord } from './webhooks.ts';

/**
 * Sends the outbox items among stream records to their queues, in order.
 * Returns the first record that could not be sent, from which the stream is
 * retried; a record relayed twice is a duplicate message, which every
 * consumer tolerates (deliveries are idempotent).
 */
export async function relayOutboxRecords(records: DynamoDBRecord[]): Promise<DynamoDBBatchResponse> {
  // An organization's subscriptions are read once per batch, however many of its events it holds.
  const subscriptions = new Map<number, Promise<WebhookRecord[]>>();
  const subscriptionsOf = (orgId: number) => {
    let found = subscriptions.get(orgId);
    if (!found) {
      found = listWebhooks(orgId);
      subscriptions.set(orgId, found);
    }
    return found;
  };
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    // Only outbox inserts matter; other items are not decoded at all.
    if (record.eventName !== 'INSERT' || image?.type?.S !== OUTBOX_TYPE) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    const queue = item.queue as QueueName;
    if (!(queue in queueDefinitions)) {
      logger.error('Outbox item names an unknown queue', { queue, outboxId: item.outboxId });
      continue;
    }
    try {
      if (item.kind === WEBHOOK_EVENT_KIND) await relayWebhookEvent(item, subscriptionsOf);
      else
        await sqs.send(
          new SendMessageCommand({ QueueUrl: queueUrl(queue), MessageBody: item.body as string }),
        );
    } catch (error) {
      logger.error('Relaying an outbox item failed', {
        queue,
        outboxId: item.outboxId,
        errorName: (error as Error).name,
      });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}

/** SQS's limit of messages per SendMessageBatch. */
const SEND_BATCH = 10;

/**
 * A webhook event: fanned out to one delivery per subscription (idempotent,
 * so a retried record reuses its deliveries), then one queue message each.
 */
async function relayWebhookEvent(
  item: Record<string, unknown>,
  subscriptionsOf: (orgId: number) => Promise<WebhookRecord[]>,
): Promise<void> {
  const jobs = await fanOutWebhookEvent(
    item.orgId as number,
    {
      eventId: item.outboxId as string,
      eventType: item.eventType as string,
      payload: item.body as string,
      occurredAt: item.createdAt as string,
    },
    subscriptionsOf,
  );
  for (let start = 0; start < jobs.length; start += SEND_BATCH) {
    const chunk = jobs.slice(start, start + SEND_BATCH);
    const { Failed = [] } = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl('webhooks'),
        Entries: chunk.map((job, index) => ({ Id: String(index), MessageBody: JSON.stringify(job) })),
      }),
    );
    if (Failed.length > 0) throw new Error(`${Failed.length} webhook deliveries were not queued`);
  }
}
