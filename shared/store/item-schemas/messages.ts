import * as z from 'zod/mini';
import { provider } from '#schemas/import.ts';
import { messageType } from '#schemas/resources.ts';

// The item schemas of messages.ts: what its store reads (and checks) items with.

const optionalText = z._default(z.nullable(z.string()), null);

const optionalNumber = z._default(z.nullable(z.number()), null);

export const messageItem = z.object({
  messageId: z.number(),
  assignmentId: z.number(),
  messageType,
  stepType: z.string(),
  stepIndex: optionalNumber,
  variantIndex: optionalNumber,
  responseType: optionalText,
  subject: optionalText,
  body: optionalText,
  openCount: z._default(z.number(), 0),
  senderEmail: optionalText,
  createdAt: optionalText,
  /**
   * Whether a classification (`reply_classified`) ever made or found the
   * received message positive: Positive Reply is announced once per message,
   * however often it is classified again.
   */
  everPositive: z._default(z.boolean(), false),
});

export type MessageRecord = z.infer<typeof messageItem>;

/** Where a reply's mail stands. */
// kept: 6.3 KiB in list-campaign-messages without it (its union; only the mail sender parses replies).
export const mailState = /* @__PURE__ */ (() =>
  z.object({
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    inReplyTo: z.nullable(z.string()),
    state: z.string(),
    /**
     * Which way the reply leaves: by email (SES, or SMTP locally), or through the provider's own
     * thread on a connection (docs/providers.md#replies): the mailbox or LinkedIn account that wrote.
     */
    route: z._default(
      z.discriminatedUnion('via', [
        z.object({
          via: z.literal('email'),
          /**
           * Why a reply to a lead enrolled at a provider leaves by email rather than in the provider's
           * thread (docs/providers.md#replies); absent when email is simply the way (not enrolled).
           */
          reason: z.optional(z.string()),
        }),
        z.object({
          via: z.literal('provider'),
          provider,
          connectionId: z.number(),
          externalId: z.string(),
          leadId: z.string(),
          leadEmail: z.nullable(z.string()),
          leadLinkedinUrl: z.nullable(z.string()),
          replyThread: z.record(z.string(), z.string()),
        }),
      ]),
      { via: 'email' },
    ),
  }))();

export type MailState = z.input<typeof mailState>;

/** A reply as the mail sender reads it. */
// kept with mailState's.
export const replyItem = /* @__PURE__ */ (() =>
  z.object({ subject: z.string(), body: z.string(), mail: mailState }))();

export type ReplyRecord = z.infer<typeof replyItem>;
