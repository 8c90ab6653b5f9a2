import { MAX_REPLY_HTML_BYTES } from '#definitions/reply-limits.ts';
import type { Envelope } from '#platform/mail-transport.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { allocateId } from '#store/ids.ts';
import { type MailState, newMessagePut } from '#store/messages.ts';
import { outboxWrite } from '#store/outbox.ts';
import { type TransactItem, transact } from '#store/transactions.ts';
import { assignmentCounterWrites, assignmentDeltas } from './aggregates.ts';
import { type AssignmentRecord, factsOf, getAssignment } from './assignments.ts';
import { ReplyNotSendable } from './errors.ts';
import { messageIdOf, plainTextToHtml } from './mail-compose.ts';
import { assignmentMessageUpdate, messageEffects } from './messages.ts';
import { assignmentMessageEventWrite } from './webhook-events.ts';

/**
 * Replying to an assignment's contact. The reply is recorded at once in the
 * campaign's message history (a sent message, step type `reply`) together with
 * an outbox item for the mail queue, in one transaction; the mail sender then
 * composes and sends it. Delivery state lives on the message item, so a
 * retried queue message never sends a reply that was sent already.
 *
 * Primary course: 1. read the assignment (it knows the thread's last message)
 * 2. decide sender, recipients, subject 3. write message, counters and outbox
 * 4. (mail sender) send once, record it.
 */

/** What the caller asked for. */
export interface ReplyRequest {
  body: string;
  plainText: boolean;
  to?: string[];
  cc?: string[];
  bcc?: string[];
}

type MailRoute = NonNullable<MailState['route']>;

/** Mail settings of the deployment. */
export interface MailSettings {
  /** The sender when no mailbox has written to the contact yet. */
  defaultFrom: string;
  /** The right-hand side of Message-IDs. */
  messageIdDomain: string;
}

/** The message-queue payload: just the ids; the content stays in the table. */
export interface MailJob {
  orgId: number;
  messageId: number;
}

/** The largest reply's HTML (the reply's schema refuses more with the request's other problems). */
export { MAX_REPLY_HTML_BYTES };

/** Records a reply and queues it for delivery; resolves when it is durably queued. */
export async function replyToAssignment(
  orgId: number,
  assignmentId: number,
  request: ReplyRequest,
  settings: MailSettings,
): Promise<{ messageId: number }> {
  const html = request.plainText ? plainTextToHtml(request.body) : request.body;
  if (Buffer.byteLength(html) > MAX_REPLY_HTML_BYTES) {
    throw new ReplyNotSendable(
      `must be at most ${MAX_REPLY_HTML_BYTES} bytes as HTML (plain text grows when escaped)`,
      { in: 'body', name: 'body' },
    );
  }
  // Another write to the assignment may win the race (its version moves): then it is read again and retried.
  return retryOnConflict(async () => {
    // A reply is a person's answer, sent whatever the assignment's status: the spec's errors for it are 400
    // and 404 only, and a contact who unsubscribed may still be owed an answer. Deciding is the caller's.
    const assignment = await getAssignment(orgId, assignmentId);
    const to = request.to ?? (assignment.contact.email ? [assignment.contact.email] : []);
    // Through the provider's thread the lead is the recipient (a LinkedIn lead has no address at all).
    if (to.length === 0 && replyRouteOf(assignment).via === 'email')
      throw new ReplyNotSendable("the contact has no email address, so 'to' is required", {
        in: 'body',
        name: 'to',
      });
    const messageId = await allocateId('message');
    const createdAt = new Date().toISOString();
    const route = replyRouteOf(assignment);
    const from = assignment.lastSenderEmail ?? settings.defaultFrom;
    const thread = assignment.lastSubject;
    const subject = thread ? (/^re:/i.test(thread) ? thread : `Re: ${thread}`) : 'Re: our conversation';
    const message = {
      id: messageId,
      type: 'sent' as const,
      step_type: 'reply' as const,
      step_index: null,
      variant_index: null,
      response_type: null,
      subject,
      body: html,
      open_count: 0,
      sender_email: from,
      created_at: createdAt,
    };
    const envelope: Envelope = { from, to, cc: request.cc ?? [], bcc: request.bcc ?? [] };
    const effects = messageEffects(assignment, [message]);
    const deltas = assignmentDeltas(factsOf(assignment), {
      ...factsOf(assignment),
      sentCount: assignment.sentCount + 1,
    });
    const writes: TransactItem[] = [
      newMessagePut(orgId, assignment, message, {
        mail: {
          ...envelope,
          inReplyTo:
            assignment.lastMessageId === null
              ? null
              : messageIdOf(orgId, assignment.lastMessageId, settings.messageIdDomain),
          state: 'queued',
          attempts: 0,
          route,
        },
      }),
      assignmentMessageUpdate(orgId, assignment, effects),
      ...assignmentCounterWrites(orgId, assignment, deltas, 1),
      outboxWrite(orgId, 'mail', { orgId, messageId } satisfies MailJob),
    ];
    // A reply can be the first message an assignment sends: that is its First Touch.
    if (assignment.sentCount === 0) {
      writes.push(
        assignmentMessageEventWrite(orgId, 'first_touch', assignment, {
          ...message,
          assignment_id: assignmentId,
        }),
      );
    }
    await transact(writes);
    return { messageId };
  }, REPLY_RETRY);
}

/**
 * How a reply to the assignment leaves (docs/providers.md#replies): through the provider's own
 * thread when the assignment is enrolled on a connection whose provider can answer in thread and
 * its webhook reported a reply to answer (the thread's reference); by email otherwise.
 */
export function replyRouteOf(assignment: AssignmentRecord): MailRoute {
  const { enrollTarget, providerLeadId, replyThread, provider } = assignment;
  if (!enrollTarget || !providerLeadId) return { via: 'email' };
  // Enrolled at a provider, yet by email: the route says why, so the reply's outcome explains itself.
  const { displayName, replyThreadNamedBy } = PROVIDER_FACTS[provider];
  if (replyThreadNamedBy === null) {
    return { via: 'email', reason: `${provider} cannot answer in a lead's thread` };
  }
  if (!replyThread) {
    return {
      via: 'email',
      reason: `no ${provider} reply webhook gave this lead's thread (${displayName}'s names it by ${replyThreadNamedBy})`,
    };
  }
  return {
    via: 'provider',
    provider: assignment.provider,
    connectionId: enrollTarget.connectionId,
    externalId: enrollTarget.externalId,
    leadId: providerLeadId,
    leadEmail: assignment.contact.email ?? null,
    leadLinkedinUrl: assignment.contact.linkedin_url ?? null,
    replyThread,
  };
}

/** A reply whose transaction lost a race is read afresh and tried again at once, up to 6 tries in all. */
const REPLY_RETRY = { attempts: 6, baseDelayMs: 0, retryIf: () => true };
