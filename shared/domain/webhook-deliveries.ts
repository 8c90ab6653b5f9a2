import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { logger } from '#platform/logger.ts';
import { type AttemptResult, postWebhook } from '#platform/outbound-http.ts';
import type { Resolver, UrlPolicy } from '#platform/ssrf.ts';
import {
  type DeliveryStatus,
  TEST_EVENT_TYPE,
  type WebhookDelivery,
  type WebhookPayload,
} from '#schemas/webhooks.ts';
import { batchGet } from '#store/batch.ts';
import { allocateId, allocateIds } from '#store/ids.ts';
import { keys, sortableNumber } from '#store/keys.ts';
import { outboxWrite } from '#store/outbox.ts';
import {
  MAX_TRANSACTION_ITEMS,
  type TransactItem,
  TransactionConflictError,
  transact,
} from '#store/transactions.ts';
import { DeliveryExpired, DeliveryNotFound, RedeliveryInProgress } from './errors.ts';
import { newEventId } from './webhook-events.ts';
import { retryDelaySeconds } from './webhook-retry-schedule.ts';
import { webhookHeaders } from './webhook-signing.ts';
import {
  disableWebhook,
  getWebhook,
  recordWebhookFailure,
  recordWebhookSuccess,
  signingSecrets,
  toWebhookRecord,
  type WebhookRecord,
} from './webhooks.ts';

/**
 * Deliveries: one per (event, subscription). The relay fans an event out into
 * an event record (the payload, kept for redelivery) and its deliveries, in
 * one conditional transaction, so a relay that retries reuses them; each
 * delivery becomes one message on the webhooks queue. The dispatcher sends a
 * delivery, records the attempt on it, and tells the queue when to try again.
 *
 * Primary course (dispatcher): 1. read delivery, subscription and event
 * 2. skip what is done, superseded or cancelled 3. sign and send 4. record
 * the attempt and the subscription's health 5. delivered, gone, or retry later.
 */

/** Deliveries and event payloads are kept this long (the deliveries log, redelivery). */
const RETENTION_SECONDS = 30 * 24 * 60 * 60;

/** A message on the webhooks queue. */
export interface DeliveryJob {
  orgId: number;
  webhookId: number;
  deliveryId: number;
  eventId: string;
  /** Raised by each redelivery: a message of an older generation is stale and dropped. */
  generation: number;
  /** Asked for explicitly (test event, redelivery): sent even while the subscription is disabled. */
  manual?: boolean;
}

interface DeliveryRecord {
  orgId: number;
  webhookId: number;
  deliveryId: number;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  generation: number;
  responseCode: number | null;
  latencyMs: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

function toDeliveryRecord(item: Record<string, unknown>): DeliveryRecord {
  return {
    orgId: item.orgId as number,
    webhookId: item.webhookId as number,
    deliveryId: item.deliveryId as number,
    eventId: item.eventId as string,
    eventType: item.eventType as string,
    status: item.status as DeliveryStatus,
    attempts: Number(item.attempts ?? 0),
    generation: Number(item.generation ?? 0),
    responseCode: (item.responseCode as number | null) ?? null,
    latencyMs: (item.latencyMs as number | null) ?? null,
    error: (item.error as string | null) ?? null,
    createdAt: item.createdAt as string,
    lastAttemptAt: (item.lastAttemptAt as string | null) ?? null,
    nextAttemptAt: (item.nextAttemptAt as string | null) ?? null,
    deliveredAt: (item.deliveredAt as string | null) ?? null,
  };
}

/** The delivery resource of the deliveries log. */
export function toWebhookDelivery(record: DeliveryRecord): WebhookDelivery {
  return {
    id: record.deliveryId,
    webhook_id: record.webhookId,
    event_id: record.eventId,
    event_type: record.eventType,
    status: record.status,
    attempts: record.attempts,
    response_code: record.responseCode,
    latency_ms: record.latencyMs,
    error: record.error,
    created_at: record.createdAt,
    last_attempt_at: record.lastAttemptAt,
    next_attempt_at: record.nextAttemptAt,
    delivered_at: record.deliveredAt,
  };
}

const expiresAt = () => Math.floor(Date.now() / 1000) + RETENTION_SECONDS;

function newDeliveryItem(
  orgId: number,
  webhookId: number,
  deliveryId: number,
  eventId: string,
  eventType: string,
) {
  return {
    ...keys.webhookDelivery(orgId, webhookId, deliveryId),
    type: 'webhookDelivery',
    orgId,
    webhookId,
    deliveryId,
    eventId,
    eventType,
    status: 'pending',
    attempts: 0,
    generation: 0,
    createdAt: new Date().toISOString(),
    expiresAt: expiresAt(),
  };
}

/** The event record and its new deliveries, written only if the event was not fanned out before. */
function fanOutWrites(
  orgId: number,
  event: { eventId: string; eventType: string; payload: string },
  deliveries: { webhookId: number; deliveryId: number }[],
): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.webhookEvent(orgId, event.eventId),
          type: 'webhookEventRecord',
          orgId,
          eventId: event.eventId,
          eventType: event.eventType,
          payload: event.payload,
          deliveries,
          createdAt: new Date().toISOString(),
          expiresAt: expiresAt(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...deliveries.map(
      (delivery): TransactItem => ({
        Put: {
          TableName: tableName(),
          Item: newDeliveryItem(
            orgId,
            delivery.webhookId,
            delivery.deliveryId,
            event.eventId,
            event.eventType,
          ),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      }),
    ),
  ];
}

async function readEventRecord(orgId: number, eventId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookEvent(orgId, eventId), ConsistentRead: true }),
  );
  return Item;
}

const jobsOf = (orgId: number, eventId: string, item: Record<string, unknown>): DeliveryJob[] =>
  ((item.deliveries as { webhookId: number; deliveryId: number }[]) ?? []).map((delivery) => ({
    orgId,
    webhookId: delivery.webhookId,
    deliveryId: delivery.deliveryId,
    eventId,
    generation: 0,
  }));

/**
 * Fans an event out to the organization's enabled subscriptions for its type
 * that existed when it occurred: writes the event record and one delivery
 * each, and returns the queue messages to send. Idempotent: an event fanned
 * out before returns the same deliveries, and one relayed again later (a
 * retried or replayed stream record) reaches no subscription created since.
 */
export async function fanOutWebhookEvent(
  orgId: number,
  event: { eventId: string; eventType: string; payload: string; occurredAt: string },
  subscriptionsOf: (orgId: number) => Promise<WebhookRecord[]>,
): Promise<DeliveryJob[]> {
  const existing = await readEventRecord(orgId, event.eventId);
  if (existing) return jobsOf(orgId, event.eventId, existing);
  const targets = (await subscriptionsOf(orgId))
    .filter(
      (subscription) =>
        subscription.enabled &&
        (subscription.events as string[]).includes(event.eventType) &&
        subscription.createdAt <= event.occurredAt,
    )
    .slice(0, MAX_TRANSACTION_ITEMS - 1);
  if (targets.length === 0) return [];
  const ids = await allocateIds('delivery', targets.length);
  const deliveries = targets.map((subscription, index) => ({
    webhookId: subscription.webhookId,
    deliveryId: ids[index]!,
  }));
  try {
    await transact(fanOutWrites(orgId, event, deliveries));
  } catch (error) {
    // Another relay invocation fanned the same event out meanwhile: use its deliveries.
    if (error instanceof TransactionConflictError && error.failedConditions.includes(0)) {
      const winner = await readEventRecord(orgId, event.eventId);
      if (winner) return jobsOf(orgId, event.eventId, winner);
    }
    throw error;
  }
  return deliveries.map((delivery) => ({ orgId, ...delivery, eventId: event.eventId, generation: 0 }));
}

/** How the dispatcher runs an attempt. */
export interface DispatchContext {
  /** This message's receive count (1 on the first attempt). */
  attempt: number;
  /** The queue's receive limit: the last attempt before the dead-letter queue. */
  maxAttempts: number;
  schedule: readonly number[];
  policy: UrlPolicy;
  resolve?: Resolver;
  timeoutMs?: number;
}

/** What became of a queue message. */
export type DispatchOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'gone' }
  | { outcome: 'dropped'; reason: string }
  | { outcome: 'retry'; delaySeconds: number; final: boolean };

async function recordAttempt(
  job: DeliveryJob,
  fields: Record<string, unknown>,
  countAttempt: boolean,
): Promise<void> {
  const names: Record<string, string> = { '#generation': 'generation' };
  const values: Record<string, unknown> = { ':generation': job.generation };
  const sets = Object.entries(fields).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  if (countAttempt) {
    names['#attempts'] = 'attempts';
    values[':one'] = 1;
  }
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookDelivery(job.orgId, job.webhookId, job.deliveryId),
        UpdateExpression: `SET ${sets.join(', ')}${countAttempt ? ' ADD #attempts :one' : ''}`,
        // A redelivery since this attempt started owns the record now.
        ConditionExpression: '#generation = :generation',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Runs one delivery attempt for a queue message. A delivery is sent at most
 * once successfully per generation: a message for a delivered, superseded or
 * cancelled delivery is dropped. Infrastructure errors (the table) propagate.
 */
export async function deliverWebhook(job: DeliveryJob, context: DispatchContext): Promise<DispatchOutcome> {
  const [deliveryKey, webhookKey, eventKey] = [
    keys.webhookDelivery(job.orgId, job.webhookId, job.deliveryId),
    keys.webhook(job.orgId, job.webhookId),
    keys.webhookEvent(job.orgId, job.eventId),
  ];
  const items = await batchGet([deliveryKey, webhookKey, eventKey], { consistent: true });
  const find = (key: { pk: string; sk: string }) =>
    items.find((item) => item.pk === key.pk && item.sk === key.sk);
  const deliveryItem = find(deliveryKey);
  if (!deliveryItem) return { outcome: 'dropped', reason: 'delivery not found' };
  const delivery = toDeliveryRecord(deliveryItem);
  if (job.generation < delivery.generation)
    return { outcome: 'dropped', reason: 'superseded by a redelivery' };
  if (delivery.status === 'delivered') return { outcome: 'dropped', reason: 'already delivered' };
  const webhookItem = find(webhookKey);
  const webhook = webhookItem ? toWebhookRecord(webhookItem) : null;
  if (!webhook || (!webhook.enabled && !job.manual)) {
    const error = webhook ? 'webhook disabled' : 'webhook deleted';
    await recordAttempt(job, { status: 'cancelled', error, nextAttemptAt: null }, false);
    return { outcome: 'dropped', reason: error };
  }
  const eventItem = find(eventKey);
  if (!eventItem) {
    await recordAttempt(job, { status: 'failed', error: 'event no longer kept', nextAttemptAt: null }, false);
    return { outcome: 'dropped', reason: 'event no longer kept' };
  }

  const body = eventItem.payload as string;
  const now = new Date();
  const result: AttemptResult = await postWebhook({
    url: webhook.url,
    body,
    headers: webhookHeaders({
      webhookId: job.eventId,
      timestampSeconds: Math.floor(now.getTime() / 1000),
      body,
      secrets: signingSecrets(webhook, now),
    }),
    policy: context.policy,
    resolve: context.resolve,
    timeoutMs: context.timeoutMs,
  });
  const attemptFields = {
    lastAttemptAt: now.toISOString(),
    responseCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
  };
  const trackHealth = webhook.enabled;
  logger.info('Webhook attempt', {
    orgId: job.orgId,
    webhookId: job.webhookId,
    deliveryId: job.deliveryId,
    attempt: context.attempt,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
  });

  if (result.ok) {
    await recordAttempt(
      job,
      { ...attemptFields, status: 'delivered', deliveredAt: new Date().toISOString(), nextAttemptAt: null },
      true,
    );
    if (trackHealth && webhook.failingSince) await recordWebhookSuccess(job.orgId, job.webhookId);
    return { outcome: 'delivered' };
  }
  if (result.statusCode === 410) {
    // The subscriber says the endpoint is gone for good: stop sending there.
    await recordAttempt(job, { ...attemptFields, status: 'failed', nextAttemptAt: null }, true);
    if (webhook.enabled) {
      await disableWebhook(
        job.orgId,
        job.webhookId,
        `The endpoint answered 410 Gone on ${now.toISOString()}`,
      );
    }
    return { outcome: 'gone' };
  }
  const final = context.attempt >= context.maxAttempts;
  const delaySeconds = final ? 0 : retryDelaySeconds(context.schedule, context.attempt);
  await recordAttempt(
    job,
    {
      ...attemptFields,
      status: final ? 'failed' : 'retrying',
      nextAttemptAt: final ? null : new Date(now.getTime() + delaySeconds * 1000).toISOString(),
    },
    true,
  );
  if (trackHealth) await recordWebhookFailure(job.orgId, job.webhookId, now);
  return { outcome: 'retry', delaySeconds, final };
}

/** A page of a subscription's deliveries, newest first; `next` continues it (null on the last page). */
export async function listDeliveries(
  orgId: number,
  webhookId: number,
  options: { take: number; cursor?: number },
): Promise<{ data: WebhookDelivery[]; next: number | null }> {
  await getWebhook(orgId, webhookId);
  const { pk, skPrefix } = keys.webhookDeliveriesOf(orgId, webhookId);
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression:
        options.cursor === undefined
          ? 'pk = :pk AND begins_with(sk, :prefix)'
          : 'pk = :pk AND sk BETWEEN :prefix AND :before',
      ExpressionAttributeValues: {
        ':pk': pk,
        ':prefix': skPrefix,
        // BETWEEN is inclusive: the cursor's own delivery is left out below.
        ...(options.cursor !== undefined && { ':before': `${skPrefix}${sortableNumber(options.cursor)}` }),
      },
      ScanIndexForward: false,
      Limit: options.take + 2,
    }),
  );
  const records = Items.map(toDeliveryRecord).filter((record) => record.deliveryId !== options.cursor);
  const page = records.slice(0, options.take);
  return {
    data: page.map(toWebhookDelivery),
    next: records.length > options.take ? page.at(-1)!.deliveryId : null,
  };
}

async function getDelivery(orgId: number, webhookId: number, deliveryId: number): Promise<DeliveryRecord> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.webhookDelivery(orgId, webhookId, deliveryId),
      ConsistentRead: true,
    }),
  );
  if (!Item) throw new DeliveryNotFound(deliveryId);
  return toDeliveryRecord(Item);
}

/**
 * Sends a delivery again, now, with the same `webhook-id` and payload: it
 * becomes pending under a new generation (any retry still queued for it is
 * dropped) and is queued through the outbox. Works on a disabled subscription,
 * so an endpoint can be checked before re-enabling it.
 */
export async function redeliver(
  orgId: number,
  webhookId: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  await getWebhook(orgId, webhookId);
  const delivery = await getDelivery(orgId, webhookId, deliveryId);
  if (!(await readEventRecord(orgId, delivery.eventId))) {
    throw new DeliveryExpired(deliveryId);
  }
  const generation = delivery.generation + 1;
  const job: DeliveryJob = {
    orgId,
    webhookId,
    deliveryId,
    eventId: delivery.eventId,
    generation,
    manual: true,
  };
  try {
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: keys.webhookDelivery(orgId, webhookId, deliveryId),
          UpdateExpression:
            'SET #status = :pending, #generation = :next, nextAttemptAt = :null, #error = :null',
          ConditionExpression: '#generation = :current',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#generation': 'generation' },
          ExpressionAttributeValues: {
            ':pending': 'pending',
            ':next': generation,
            ':current': delivery.generation,
            ':null': null,
          },
        },
      },
      outboxWrite(orgId, 'webhooks', job),
    ]);
  } catch (error) {
    if (error instanceof TransactionConflictError) throw new RedeliveryInProgress(deliveryId);
    throw error;
  }
  return toWebhookDelivery({ ...delivery, status: 'pending', generation, nextAttemptAt: null, error: null });
}

/** The text of the test event. */
const TEST_MESSAGE =
  'A test event from the Outreach Campaign Public API; the signature verifies with your webhook secret.';

/**
 * Queues a `test` event to one subscription (whatever its event types, even
 * disabled): an event record, a delivery and its queue message through the
 * outbox, in one transaction. Returns the pending delivery.
 */
export async function sendTestEvent(orgId: number, webhookId: number): Promise<WebhookDelivery> {
  await getWebhook(orgId, webhookId);
  const eventId = newEventId();
  const deliveryId = await allocateId('delivery');
  const payload: WebhookPayload = {
    type: TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { webhook_id: webhookId, message: TEST_MESSAGE },
  };
  const job: DeliveryJob = { orgId, webhookId, deliveryId, eventId, generation: 0, manual: true };
  await transact([
    ...fanOutWrites(orgId, { eventId, eventType: TEST_EVENT_TYPE, payload: JSON.stringify(payload) }, [
      { webhookId, deliveryId },
    ]),
    outboxWrite(orgId, 'webhooks', job),
  ]);
  return toWebhookDelivery(
    toDeliveryRecord(newDeliveryItem(orgId, webhookId, deliveryId, eventId, TEST_EVENT_TYPE)),
  );
}
