import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { logger } from '#platform/logger.ts';
import { queueMessageBody, queueUrl, sqs } from '#platform/queue-client.ts';
import { type OutboxItem, outboxItemOf, WEBHOOK_EVENT_KIND } from '#store/outbox.ts';
import type { WebhookRecord } from './webhooks.ts';

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
      found = import('./webhooks.ts').then(({ listWebhooks }) => listWebhooks(orgId));
      subscriptions.set(orgId, found);
    }
    return found;
  };
  for (const record of records) {
    // Only outbox inserts matter; other items are not decoded at all.
    const item = outboxItemOf(record);
    if (item === null) continue;
    if (item === 'malformed') {
      logger.error('Outbox item cannot be read', { sequenceNumber: record.dynamodb?.SequenceNumber });
      continue;
    }
    const { queue } = item;
    if (!isQueueName(queue)) {
      logger.error('Outbox item names an unknown queue', { queue, outboxId: item.outboxId });
      continue;
    }
    try {
      if (item.kind === WEBHOOK_EVENT_KIND) await relayWebhookEvent(item, subscriptionsOf);
      // Escaped as every producer's JSON is: an item's text never makes the queue refuse it (which would
      // hold the stream at this record).
      else
        await sqs.send(
          new SendMessageCommand({ QueueUrl: queueUrl(queue), MessageBody: queueMessageBody(item.body) }),
        );
    } catch (error) {
      logger.error('Relaying an outbox item failed', {
        queue,
        outboxId: item.outboxId,
        errorName: error instanceof Error ? error.name : 'Error',
      });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}

const isQueueName = (name: string): name is QueueName => Object.hasOwn(queueDefinitions, name);

/** SQS's limit of messages per SendMessageBatch. */
const SEND_BATCH = 10;

/**
 * A webhook event: fanned out to one delivery per subscription (idempotent,
 * so a retried record reuses its deliveries), then one queue message each.
 */
async function relayWebhookEvent(
  item: OutboxItem,
  subscriptionsOf: (orgId: number) => Promise<WebhookRecord[]>,
): Promise<void> {
  // The fan-out (the subscriptions and deliveries in the table) loads with the first webhook event:
  // the other items (provider work, a delivery sent again) go to their queue as they are.
  const { fanOutWebhookEvent } = await import('./webhook-fan-out.ts');
  const jobs = await fanOutWebhookEvent(
    item.orgId,
    {
      eventId: item.outboxId,
      // An event without a type reaches no subscription.
      eventType: item.eventType ?? '',
      payload: item.body,
      occurredAt: item.createdAt,
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
