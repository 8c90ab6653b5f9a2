import type { MailTransport } from '#platform/mail-transport.ts';
import { ProviderApiError } from '#providers/contract.ts';
import { replyMail } from '#store/messages.ts';
import { composeMime, htmlToText, messageIdOf } from './mail-compose.ts';
import type { ProviderReplySender, ProviderRoute } from './provider-replies.ts';
import type { MailJob, MailSettings } from './replies.ts';

/**
 * The mail sender's part of replying (shared/domain/replies.ts records the
 * reply and queues it): sending a queued reply once, by email or through its
 * provider, and recording that it was sent. A module of its own, so that the
 * reply endpoint's bundle holds nothing of it, not even the chunk the provider
 * replies are loaded from.
 */

/**
 * `sendReplyThroughProvider` (provider-replies.ts), loaded on first use: only
 * a reply on a sequence connected to a provider needs the provider clients and
 * their stores, so the mail sender does not load them at start
 * (docs/architecture.md, Bundles).
 */
const sendReplyThroughProvider: ProviderReplySender = async (orgId, route, message) =>
  (await import('./provider-replies.ts')).sendReplyThroughProvider(orgId, route, message);

/** What happened to one queued reply. */
export type DeliveryOutcome = 'sent' | 'already-sent' | 'missing';

/**
 * Delivers one queued reply: composes the MIME message and hands it to the
 * transport, then records it as sent. A reply recorded as sent is not sent
 * again. A transport error propagates (the queue retries it); the attempt is
 * counted on the message.
 */
export async function deliverReply(
  job: MailJob,
  transport: MailTransport,
  settings: MailSettings,
  providerReplies: ProviderReplySender = sendReplyThroughProvider,
): Promise<DeliveryOutcome> {
  const reply = await replyMail.getReply(job.orgId, job.messageId);
  if (!reply) return 'missing';
  const { mail } = reply;
  if (mail.state === 'sent') return 'already-sent';
  if (mail.route.via === 'provider') {
    const route = mail.route as ProviderRoute;
    const sent = await attempt(job, () =>
      providerReplies(job.orgId, route, {
        subject: reply.subject,
        html: reply.body,
        text: htmlToText(reply.body),
      }).catch((error: unknown) => {
        // A refusal (the thread lacks what the provider's reply needs, the provider refuses it) will not
        // pass on a retry: the lead is answered by email instead. Rate limits and outages are retried.
        if (error instanceof ProviderApiError && error.kind === 'refused') {
          return { fallback: `${route.provider} could not answer in the thread: ${error.message}` };
        }
        throw error;
      }),
    );
    if (sent !== 'no-connection' && !('fallback' in sent)) {
      await replyMail.recordMailAttempt(job.orgId, job.messageId, {
        state: 'sent',
        sentAt: new Date().toISOString(),
        ...(sent.providerMessageId ? { providerMessageId: sent.providerMessageId } : {}),
      });
      return 'sent';
    }
    // The reply leaves by email after all, and its route says why.
    const reason = sent === 'no-connection' ? 'the provider connection was removed' : sent.fallback;
    await replyMail.setMailRoute(job.orgId, job.messageId, { via: 'email', reason });
  }
  const raw = await composeMime({
    messageId: messageIdOf(job.orgId, job.messageId, settings.messageIdDomain),
    from: mail.from,
    to: mail.to,
    cc: mail.cc,
    bcc: mail.bcc,
    subject: reply.subject,
    html: reply.body,
    inReplyTo: mail.inReplyTo,
  });
  await attempt(job, () => transport({ from: mail.from, to: mail.to, cc: mail.cc, bcc: mail.bcc }, raw));
  await replyMail.recordMailAttempt(job.orgId, job.messageId, {
    state: 'sent',
    sentAt: new Date().toISOString(),
  });
  return 'sent';
}

/** Runs one delivery attempt; a failure is counted on the message and propagates (the queue retries). */
async function attempt<T>(job: MailJob, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    await replyMail.recordMailAttempt(job.orgId, job.messageId, {
      state: 'retrying',
      lastError: error instanceof Error ? error.name : 'Error',
    });
    throw error;
  }
}
