import { count } from '#platform/observability.ts';
import type { ReplyToSend } from '#providers/contract.ts';
import type { MailState } from '#store/messages.ts';
import { openSession } from './enrollment.ts';
import { ReplyNotSendable } from './errors.ts';

/**
 * Replies that leave through the provider (docs/providers.md#replies): from
 * the mailbox (or LinkedIn account) that wrote to the lead, in its thread,
 * with the reference the provider's reply webhook gave. The mail sender calls
 * it for a reply whose route is `provider`.
 */

export type ProviderRoute = Extract<NonNullable<MailState['route']>, { via: 'provider' }>;

/** Sends a reply through its provider; `no-connection` when the connection was removed meanwhile. */
export type ProviderReplySender = (
  orgId: number,
  route: ProviderRoute,
  message: ReplyToSend,
) => Promise<{ providerMessageId: string | null } | 'no-connection'>;

export const sendReplyThroughProvider: ProviderReplySender = async (orgId, route, message) => {
  const session = await openSession(orgId, route.connectionId, {});
  if (!session) return 'no-connection';
  if (!session.client.reply) {
    throw new ReplyNotSendable(`${route.provider} cannot answer in a lead's thread`, {
      in: 'body',
      name: 'body',
    });
  }
  const sent = await session.client.reply(
    session.http,
    session.credentials,
    {
      campaignId: route.externalId,
      lead: { leadId: route.leadId, email: route.leadEmail, linkedinUrl: route.leadLinkedinUrl },
      replyThread: route.replyThread,
    },
    message,
  );
  count('ReplySentThroughProvider');
  return sent;
};
