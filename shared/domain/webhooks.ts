import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import {
  checkWebhookUrl,
  type Resolver,
  systemResolver,
  type UrlPolicy,
  UrlRefusedError,
  urlPolicyFromEnvironment,
} from '#platform/ssrf.ts';
import type { WebhookEventType, WebhookSubscription } from '#schemas/webhooks.ts';
import { allocateId } from '#store/ids.ts';
import { keys } from '#store/keys.ts';
import { queryAll } from '#store/query.ts';
import { type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
import {
  WebhookChangedMeanwhile,
  WebhookLimitReached,
  WebhookNotFound,
  WebhookUrlRefused,
} from './errors.ts';
import { generateSecret } from './webhook-signing.ts';

/**
 * Webhook subscriptions: an organization's URLs for event types, each with a
 * signing secret. They live in one partition per organization, so the relay's
 * fan-out reads them with a single Query. The secret is stored as is (it is
 * needed to sign; DynamoDB encrypts it at rest) and leaves the service only in
 * the create and rotate-secret responses.
 */

/** An organization may have this many subscriptions (a fan-out writes them in one transaction). */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 25;
/** Tries of a count transaction that lost a race to a concurrent create or delete. */
const COUNT_ATTEMPTS = 8;
/** After a rotation the previous secret still signs for this long, so subscribers can switch over. */
export const PREVIOUS_SECRET_GRACE_SECONDS = 24 * 60 * 60;
/** A subscription whose deliveries all failed for this long is disabled. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/** A subscription as stored. */
export interface WebhookRecord {
  orgId: number;
  webhookId: number;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A stored subscription item as a record. */
export function toWebhookRecord(item: Record<string, unknown>): WebhookRecord {
  return {
    orgId: item.orgId as number,
    webhookId: item.webhookId as number,
    url: item.url as string,
    events: (item.events as WebhookEventType[]) ?? [],
    enabled: item.enabled === true,
    disabledReason: (item.disabledReason as string | null) ?? null,
    failingSince: (item.failingSince as string | null) ?? null,
    secret: item.secret as string,
    previousSecret: (item.previousSecret as string | null) ?? null,
    previousSecretExpiresAt: (item.previousSecretExpiresAt as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

/** The subscription resource (never the secret). */
export function toWebhookSubscription(record: WebhookRecord): WebhookSubscription {
  return {
    id: record.webhookId,
    url: record.url,
    events: record.events,
    enabled: record.enabled,
    disabled_reason: record.disabledReason,
    failing_since: record.failingSince,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/** The secrets a delivery is signed with: the current one, and the previous one during its grace period. */
export function signingSecrets(record: WebhookRecord, now = new Date()): string[] {
  const previousValid =
    record.previousSecret !== null &&
    record.previousSecretExpiresAt !== null &&
    record.previousSecretExpiresAt > now.toISOString();
  return previousValid ? [record.secret, record.previousSecret!] : [record.secret];
}

/** Checks a subscriber URL, turning a refusal into a 400 that names the field. */
async function acceptedUrl(url: string, policy: UrlPolicy, resolve: Resolver): Promise<string> {
  try {
    return await checkWebhookUrl(url, policy, resolve);
  } catch (error) {
    if (error instanceof UrlRefusedError) throw new WebhookUrlRefused(error.message);
    throw error;
  }
}

/** How URL checks resolve and what they allow; the environment's by default. */
export interface UrlCheckOptions {
  policy?: UrlPolicy;
  resolve?: Resolver;
}

/** Every subscription of the organization, by id. */
export async function listWebhooks(orgId: number): Promise<WebhookRecord[]> {
  const { pk, skPrefix } = keys.webhooksOfOrganization(orgId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return items.map(toWebhookRecord);
}

/** One of the organization's subscriptions; another organization's is not found. */
export async function getWebhook(orgId: number, webhookId: number): Promise<WebhookRecord> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.webhook(orgId, webhookId), ConsistentRead: true }),
  );
  if (!Item) throw new WebhookNotFound(webhookId);
  return toWebhookRecord(Item);
}

/**
 * Subscribes a URL to event types. The URL must pass the SSRF check (400
 * otherwise). Returns the subscription and its secret, which is shown only now.
 */
export async function createWebhook(
  orgId: number,
  input: { url: string; events: WebhookEventType[] },
  options: UrlCheckOptions = {},
): Promise<{ record: WebhookRecord; secret: string }> {
  const url = await acceptedUrl(
    input.url,
    options.policy ?? urlPolicyFromEnvironment(),
    options.resolve ?? systemResolver,
  );
  // A full organization is refused before anything is written; the transaction below holds the limit in a race.
  const { Item: count } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookCount(orgId), ConsistentRead: true }),
  );
  if (((count?.subscriptions as number | undefined) ?? 0) >= MAX_WEBHOOKS_PER_ORGANIZATION)
    throw limitReached();
  const webhookId = await allocateId('webhook');
  const now = new Date().toISOString();
  const record: WebhookRecord = {
    orgId,
    webhookId,
    url,
    events: input.events,
    enabled: true,
    disabledReason: null,
    failingSince: null,
    secret: generateSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const put: TransactItem = {
    Put: {
      TableName: tableName(),
      // Absent rather than null: the failure streak starts with if_not_exists(failingSince).
      Item: {
        ...keys.webhook(orgId, webhookId),
        type: 'webhook',
        ...Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  // The count and the subscription in one transaction, so concurrent creates cannot pass the limit.
  const counted: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: keys.webhookCount(orgId),
      UpdateExpression: 'ADD subscriptions :one',
      ConditionExpression: 'attribute_not_exists(subscriptions) OR subscriptions < :max',
      ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS_PER_ORGANIZATION },
    },
  };
  try {
    await transactRetryingConflicts([counted, put]);
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failedConditions.includes(0)) throw limitReached();
    throw error;
  }
  return { record, secret: record.secret };
}

const limitReached = () => new WebhookLimitReached(MAX_WEBHOOKS_PER_ORGANIZATION);

/**
 * Runs a transaction on the organization's subscription count, trying again
 * (after a short random pause) when a concurrent create or delete of the same
 * organization won the race for the count; a failed condition is final.
 */
async function transactRetryingConflicts(items: TransactItem[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transact(items);
    } catch (error) {
      const raced = error instanceof TransactionConflictError && error.failedConditions.length === 0;
      if (!raced || attempt >= COUNT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/**
 * Changes a subscription's URL (checked again), event types or enabled flag.
 * Enabling clears why it was disabled and its failure streak.
 */
export async function updateWebhook(
  orgId: number,
  webhookId: number,
  changes: { url?: string; events?: WebhookEventType[]; enabled?: boolean },
  options: UrlCheckOptions = {},
): Promise<WebhookRecord> {
  const set: Record<string, unknown> = { updatedAt: new Date().toISOString() };
  const remove: string[] = [];
  if (changes.url !== undefined) {
    set.url = await acceptedUrl(
      changes.url,
      options.policy ?? urlPolicyFromEnvironment(),
      options.resolve ?? systemResolver,
    );
  }
  if (changes.events !== undefined) set.events = changes.events;
  if (changes.enabled !== undefined) {
    set.enabled = changes.enabled;
    if (changes.enabled) remove.push('disabledReason', 'failingSince');
    else set.disabledReason = null;
  }
  return updateSubscription(orgId, webhookId, set, remove);
}

/** Deletes a subscription; its queued deliveries are cancelled when they come up. */
export async function deleteWebhook(orgId: number, webhookId: number): Promise<void> {
  try {
    await transactRetryingConflicts([
      {
        Delete: {
          TableName: tableName(),
          Key: keys.webhook(orgId, webhookId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.webhookCount(orgId),
          UpdateExpression: 'ADD subscriptions :minusOne',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failedConditions.includes(0))
      throw new WebhookNotFound(webhookId);
    throw error;
  }
}

/**
 * Gives a subscription a new secret and returns it (shown only now). The
 * previous secret keeps signing, beside the new one, for 24 hours.
 */
export async function rotateWebhookSecret(
  orgId: number,
  webhookId: number,
): Promise<{ record: WebhookRecord; secret: string }> {
  const current = await getWebhook(orgId, webhookId);
  const secret = generateSecret();
  const record = await updateSubscription(
    orgId,
    webhookId,
    {
      secret,
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_GRACE_SECONDS * 1000).toISOString(),
      updatedAt: new Date().toISOString(),
    },
    [],
    { secret: current.secret },
  );
  return { record, secret };
}

/** Disables a subscription, saying why (410 Gone, a failure streak); nothing when already disabled. */
export async function disableWebhook(orgId: number, webhookId: number, reason: string): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: 'SET #enabled = :false, disabledReason = :reason, updatedAt = :now',
        ConditionExpression: '#enabled = :true',
        ExpressionAttributeNames: { '#enabled': 'enabled' },
        ExpressionAttributeValues: {
          ':false': false,
          ':true': true,
          ':reason': reason,
          ':now': new Date().toISOString(),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Records a failed delivery in the subscription's failure streak; disables it
 * once the streak has lasted five days. Returns whether it was disabled now.
 */
export async function recordWebhookFailure(
  orgId: number,
  webhookId: number,
  now = new Date(),
): Promise<boolean> {
  let failingSince: string;
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :now)',
        ConditionExpression: 'attribute_exists(pk) AND #enabled = :true',
        ExpressionAttributeNames: { '#enabled': 'enabled' },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':true': true },
        ReturnValues: 'ALL_NEW',
      }),
    );
    failingSince = Attributes?.failingSince as string;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false; // deleted or disabled meanwhile
    throw error;
  }
  if (now.getTime() - Date.parse(failingSince) < FAILING_DISABLE_AFTER_MS) return false;
  await disableWebhook(
    orgId,
    webhookId,
    `Every delivery has failed since ${failingSince} (5 days); re-enable the webhook once the endpoint works`,
  );
  return true;
}

/** Ends the subscription's failure streak after a successful delivery. */
export async function recordWebhookSuccess(orgId: number, webhookId: number): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: 'REMOVE failingSince',
        ConditionExpression: 'attribute_exists(failingSince)',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

async function updateSubscription(
  orgId: number,
  webhookId: number,
  set: Record<string, unknown>,
  remove: string[],
  expect: Record<string, unknown> = {},
): Promise<WebhookRecord> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([name, value], index) => {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  const removes = remove.map((name, index) => {
    names[`#r${index}`] = name;
    return `#r${index}`;
  });
  const conditions = ['attribute_exists(pk)'];
  Object.entries(expect).forEach(([name, value], index) => {
    names[`#e${index}`] = name;
    values[`:e${index}`] = value;
    conditions.push(`#e${index} = :e${index}`);
  });
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(orgId, webhookId),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toWebhookRecord(Attributes ?? {});
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    if (Object.keys(expect).length > 0) {
      await getWebhook(orgId, webhookId); // a 404 when it is gone
      throw new WebhookChangedMeanwhile(webhookId);
    }
    throw new WebhookNotFound(webhookId);
  }
}
