import type { Envelope, MailTransport } from '#platform/mail-transport.ts';
import { campaigns } from '#store/campaigns.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { allocateId } from '#store/ids.ts';
import { messages } from '#store/messages.ts';
import { organizations } from '#store/organizations.ts';
import { outboxWrite } from '#store/outbox.ts';
import { type TransactItem, transact } from '#store/transactions.ts';
import { assignmentDeltas } from './aggregates.ts';
import { factsOf, getAssignment } from './assignments.ts';
import { ReplyNotSendable } from './errors.ts';
import { composeMime, messageIdOf, plainTextToHtml } from './mail-compose.ts';
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

/**
 * The largest reply as stored and sent: its HTML, which plain text becomes
 * only once escaped (`"` is six bytes then), lives in one message item, and
 * DynamoDB caps an item at 400 KB.
 */
export const MAX_REPLY_HTML_BYTES = 300 * 1024;

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
    if (to.length === 0)
      throw new ReplyNotSendable("the contact has no email address, so 'to' is required", {
        in: 'body',
        name: 'to',
      });
    const messageId = await allocateId('message');
    const createdAt = new Date().toISOString();
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
      messages.putNew(orgId, assignment, message, {
        mail: {
          ...envelope,
          inReplyTo:
            assignment.lastMessageId === null
              ? null
              : messageIdOf(orgId, assignment.lastMessageId, settings.messageIdDomain),
          state: 'queued',
          attempts: 0,
        },
      }),
      assignmentMessageUpdate(orgId, assignment, effects),
      campaigns.counters(orgId, assignment.campaignId, { ...deltas.campaign, messagesCount: 1 })!,
      outboxWrite(orgId, 'mail', { orgId, messageId } satisfies MailJob),
    ];
    const organizationWrite = organizations.analyticsCounters(orgId, deltas.organization);
    if (organizationWrite) writes.push(organizationWrite);
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

/** A reply whose transaction lost a race is read afresh and tried again at once, up to 6 tries in all. */
const REPLY_RETRY = { attempts: 6, baseDelayMs: 0, retryIf: () => true };

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
): Promise<DeliveryOutcome> {
  const reply = await messages.getReply(job.orgId, job.messageId);
  if (!reply) return 'missing';
  const { mail } = reply;
  if (mail.state === 'sent') return 'already-sent';
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
  try {
    await transport({ from: mail.from, to: mail.to, cc: mail.cc, bcc: mail.bcc }, raw);
  } catch (error) {
    await messages.recordMailAttempt(job.orgId, job.messageId, {
      state: 'retrying',
      lastError: error instanceof Error ? error.name : 'Error',
    });
    throw error;
  }
  await messages.recordMailAttempt(job.orgId, job.messageId, {
    state: 'sent',
    sentAt: new Date().toISOString(),
  });
  return 'sent';
}
