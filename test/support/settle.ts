import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { QueueName } from '#definitions/queues.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { apiClient } from './api-client.ts';
import { waitFor } from './wait.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';

/** What `settle` needs of a running stack: in-process (`LocalStack`) or another process (its endpoints file). */
export interface SettleTarget {
  /** The stack's root URL, `http://127.0.0.1:PORT`. */
  apiUrl: string;
  region: string;
  sqsEndpoint: string;
  queueUrls: Record<QueueName, string>;
}

/** A stack in another process, from the endpoints file it wrote in `localDir` (OUTREACH_LOCAL_DIR). */
export function stackIn(localDir: string): SettleTarget {
  return JSON.parse(readFileSync(join(localDir, 'endpoints.json'), 'utf8')) as SettleTarget;
}

const QUEUE_COUNTS = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
] as const;

/** Per stack: the barrier subscription's key, id and path. */
const barriers = new Map<string, Promise<{ key: string; id: number; path: string }>>();
let barrierCount = 0;

/**
 * Waits until the stack has finished the background work caused before the
 * call, instead of sleeping and hoping: a test that asserts something did not
 * happen (no second mail, no further delivery) asserts it after this.
 *
 * 1. A barrier: a `test` event of a subscription of its own goes through the
 *    outbox, the table's stream, the relay, the webhooks queue and the
 *    dispatcher to `receiver`. The relay follows the stream in order, so once
 *    the barrier arrives every earlier outbox item has been queued.
 * 2. Then every queue is empty: nothing waiting, in flight (being handled, or
 *    waiting out a retry's visibility timeout) or delayed.
 *
 * In this process's stack the barrier has an organization of its own; for a
 * stack in another process pass one of its API keys (the subscription is then
 * that organization's).
 */
export async function settle(
  target: SettleTarget,
  receiver: WebhookReceiver,
  apiKey?: string,
): Promise<void> {
  let barrier = barriers.get(target.apiUrl);
  if (!barrier) {
    barrier = (async () => {
      const key = apiKey ?? (await createApiKey((await createOrganization('Settle barrier')).orgId)).apiKey;
      const path = `/settle/${++barrierCount}`;
      const created = await apiClient(target, key).post('/webhooks', {
        url: `${receiver.url}${path}`,
        events: ['first_touch'],
      });
      if (created.status !== 200)
        throw new Error(`settle: the barrier subscription answered ${created.status}`);
      // Disabled, it receives no event of the organization's; a test event goes to it all the same.
      await apiClient(target, key).patch(`/webhooks/${created.body.id}`, { enabled: false });
      return { key, id: created.body.id as number, path };
    })();
    barriers.set(target.apiUrl, barrier);
  }
  const { key, id, path } = await barrier;
  const sent = await apiClient(target, key).post(`/webhooks/${id}/test`);
  if (sent.status !== 200) throw new Error(`settle: the barrier event answered ${sent.status}`);
  const eventId = sent.body.delivery.event_id as string;
  await waitFor(() => receiver.on(path).some((request) => request.webhookId === eventId), {
    what: 'the barrier event',
  });

  const sqs = new SQSClient({
    endpoint: target.sqsEndpoint,
    region: target.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await waitFor(
      async () => {
        for (const [queue, url] of Object.entries(target.queueUrls)) {
          const { Attributes = {} } = await sqs.send(
            new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: [...QUEUE_COUNTS] }),
          );
          const busy = QUEUE_COUNTS.filter((count) => Attributes[count] !== '0');
          if (busy.length > 0)
            throw new Error(`queue ${queue}: ${busy.map((count) => `${count} ${Attributes[count]}`)}`);
        }
      },
      { what: 'the queues to drain' },
    );
  } finally {
    sqs.destroy();
  }
}
