import {
  checkWebhookUrl,
  configuredUrlPolicy,
  type Resolver,
  systemResolver,
  type UrlPolicy,
  UrlRefusedError,
} from '#platform/ssrf.ts';
import type { WebhookEventType, WebhookSubscription } from '#schemas/webhooks.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { allocateId } from '#store/ids.ts';
import { type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
import { type WebhookRecord, webhooks } from '#store/webhooks.ts';
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
/** The wait before such a retry is random, up to 10 ms the first time, doubling with each. */
const COUNT_RETRY_BASE_DELAY_MS = 10;
/** After a rotation the previous secret still signs for this long, so subscribers can switch over. */
export const PREVIOUS_SECRET_GRACE_SECONDS = 24 * 60 * 60;
/** A subscription whose deliveries all failed for this long is disabled. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/** A subscription as stored (shared/store/webhooks.ts). */
export type { WebhookRecord };

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

/** How URL checks resolve and what they allow; the configuration's by default. */
export interface UrlCheckOptions {
  policy?: UrlPolicy;
  resolve?: Resolver;
}

/** Every subscription of the organization, by id. */
export async function listWebhooks(orgId: number): Promise<WebhookRecord[]> {
  return webhooks.list(orgId);
}

/** One of the organization's subscriptions; another organization's is not found. */
export async function getWebhook(orgId: number, webhookId: number): Promise<WebhookRecord> {
  const webhook = await webhooks.get(orgId, webhookId);
  if (!webhook) throw new WebhookNotFound(webhookId);
  return webhook;
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
    options.policy ?? configuredUrlPolicy(),
    options.resolve ?? systemResolver,
  );
  // A full organization is refused before anything is written; the transaction below holds the limit in a race.
  if ((await webhooks.count(orgId)) >= MAX_WEBHOOKS_PER_ORGANIZATION) throw limitReached();
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
  // The count and the subscription in one transaction, so concurrent creates cannot pass the limit.
  try {
    await transactRetryingConflicts([
      webhooks.countOneMore(orgId, MAX_WEBHOOKS_PER_ORGANIZATION),
      webhooks.putNew(record),
    ]);
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failed.has('webhook-limit')) throw limitReached();
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
  await retryOnConflict(() => transact(items), {
    attempts: COUNT_ATTEMPTS,
    baseDelayMs: COUNT_RETRY_BASE_DELAY_MS,
  });
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
      options.policy ?? configuredUrlPolicy(),
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
      webhooks.deleteExisting(orgId, webhookId),
      webhooks.countOneLess(orgId),
    ]);
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failed.has('webhook-not-found'))
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
  await webhooks.disable(orgId, webhookId, reason, new Date().toISOString());
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
  const failingSince = await webhooks.recordFailure(orgId, webhookId, now.toISOString());
  if (failingSince === null) return false; // deleted or disabled meanwhile
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
  await webhooks.clearFailure(orgId, webhookId);
}

async function updateSubscription(
  orgId: number,
  webhookId: number,
  set: Record<string, unknown>,
  remove: string[],
  expect: Record<string, unknown> = {},
): Promise<WebhookRecord> {
  const record = await webhooks.update(orgId, webhookId, { set, remove, expect });
  if (record) return record;
  if (Object.keys(expect).length > 0) {
    await getWebhook(orgId, webhookId); // a 404 when it is gone
    throw new WebhookChangedMeanwhile(webhookId);
  }
  throw new WebhookNotFound(webhookId);
}
