import type { MailJob } from '#domain/replies.ts';
import { deliverReply } from '#domain/reply-delivery.ts';
import { configuration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import { configuredMailTransport } from '#platform/mail-transport.ts';
import { count } from '#platform/observability.ts';
import { backoffSeconds } from '#platform/retry.ts';
import { type Consumed, type Delivery, done, retryAfter } from './queue-message.ts';

const RETRY_CAP_SECONDS = 15 * 60;

/** The mail job of a queue message's body; null when it names no reply. */
export function mailJobOf(body: string): MailJob | null {
  try {
    const job = JSON.parse(body) as MailJob;
    return Number.isSafeInteger(job.orgId) && Number.isSafeInteger(job.messageId) ? job : null;
  } catch {
    return null;
  }
}

/**
 * The mail queue's consumer: sends one queued reply. A failed attempt comes
 * back with exponential backoff; after the queue's receive limit it goes to
 * the dead-letter queue.
 */
export async function sendQueuedReply(job: MailJob, { attempt }: Delivery): Promise<Consumed> {
  const mail = configuration().mail;
  try {
    const outcome = await deliverReply(job, configuredMailTransport(), mail);
    logger.info('Mail job done', { orgId: job.orgId, replyMessageId: job.messageId, outcome });
    if (outcome === 'sent') count('ReplySent');
    return done;
  } catch (error) {
    logger.warn('Mail delivery failed; will retry', {
      orgId: job.orgId,
      replyMessageId: job.messageId,
      attempt,
      errorName: (error as Error).name,
    });
    count('ReplyRetried');
    return retryAfter(backoffSeconds(attempt, mail.retryBaseSeconds, RETRY_CAP_SECONDS));
  }
}
