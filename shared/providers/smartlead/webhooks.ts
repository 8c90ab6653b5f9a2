import * as z from 'zod/mini';
import type { MappedPayload } from '#providers/activity.ts';
import {
  type EventOutcome,
  eventIdOf,
  eventNameIn,
  firstEmail,
  firstId,
  firstIsoTime,
  firstText,
  fromOneBased,
  ignored,
  linkedinUrl,
  message,
  notRecorded,
  type ResponseType,
  recorded,
  senderEmail,
  unsupported,
  zId,
  zObject,
  zText,
  zTime,
} from '#providers/payloads.ts';
import { lenient } from '#schemas/lenient.ts';

/**
 * Smartlead's webhooks as provider activities. Smartlead posts one flat JSON
 * object per event, named by `event_type`, shaped as its help center's
 * "Webhook Guide" pages document them (help.smartlead.ai, one page per event,
 * the same as the app's "Test Webhook" sample) and as the API reference's
 * examples show (api.smartlead.ai/api-reference/webhooks/events). The API
 * overview page (api.smartlead.ai/core/webhooks) shows another shape (`event`,
 * `timestamp`, `lead.email`, `reply.body`) under other names (EMAIL_OPENED …);
 * both are read. The payload's `secret_key` is the webhook creator's and is
 * checked by the inbound endpoint, not here.
 *
 * Ids: a sent email's `stats_id` (Smartlead's row for that email of that lead)
 * comes with its opens, clicks, replies and bounces too, so it is the
 * message's provider id; `sent_message.message_id` (the email's Message-ID)
 * stands in where a payload has no `stats_id`.
 */

/** What each native event type becomes (docs/providers.md). */
export const SMARTLEAD_EVENTS = {
  EMAIL_SENT: 'message_sent',
  /** Step 1 only, with EMAIL_SENT's payload: both give the same event id, so subscribing to both records one send. */
  FIRST_EMAIL_SENT: 'message_sent',
  EMAIL_OPEN: 'opened',
  EMAIL_LINK_CLICK: 'clicked',
  EMAIL_REPLY: 'reply_received',
  EMAIL_BOUNCE: 'bounced',
  LEAD_UNSUBSCRIBED: 'unsubscribed',
  /** The category's name, through SMARTLEAD_CATEGORY_RESPONSE_TYPES. */
  LEAD_CATEGORY_UPDATED: 'reply_classified',
  // The names of the API overview page (api.smartlead.ai/core/webhooks).
  EMAIL_OPENED: 'opened',
  EMAIL_CLICKED: 'clicked',
  EMAIL_REPLIED: 'reply_received',
  EMAIL_BOUNCED: 'bounced',
  EMAIL_UNSUBSCRIBED: 'unsubscribed',
  CAMPAIGN_STATUS_CHANGED: 'ignored',
  UNTRACKED_REPLIES: 'ignored',
  MANUAL_STEP_REACHED: 'ignored',
  EMAIL_ACCOUNT_DISCONNECTED: 'ignored',
  LINKEDIN_DISCONNECTED: 'ignored',
} as const satisfies Record<string, EventOutcome>;
type SmartleadEvent = keyof typeof SMARTLEAD_EVENTS;

const NOT_RECORDED: Partial<Record<SmartleadEvent, string>> = {
  CAMPAIGN_STATUS_CHANGED: 'a campaign status change is about the whole campaign, not a lead',
  UNTRACKED_REPLIES: 'an untracked reply matches no lead of a campaign',
  MANUAL_STEP_REACHED: 'a manual step reached is a task for the sender, not something that happened',
  EMAIL_ACCOUNT_DISCONNECTED: 'a mailbox disconnection is about a sending account, not a lead',
  LINKEDIN_DISCONNECTED: 'a LinkedIn disconnection is about a sending account, not a lead',
};

/**
 * Smartlead's lead categories (its defaults, and those its docs name) as the
 * service's response types, matched without regard to case. Any other
 * category (a workspace's own) is `neutral`.
 */
export const SMARTLEAD_CATEGORY_RESPONSE_TYPES = {
  Interested: 'positive',
  'Meeting Request': 'positive',
  'Meeting Booked': 'positive',
  'Information Request': 'positive',
  'Not Interested': 'not_interested',
  'Do Not Contact': 'unsubscribe_request',
  'Out Of Office': 'out_of_office',
  'Wrong Person': 'wrong_person',
  'Uncategorizable by AI': 'neutral',
  'Sender Originated Bounce': 'neutral',
  'Follow Up Later': 'neutral',
} as const satisfies Record<string, ResponseType>;

const categoryKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();
const RESPONSE_TYPE_BY_CATEGORY = new Map<string, ResponseType>(
  Object.entries(SMARTLEAD_CATEGORY_RESPONSE_TYPES).map(([name, type]) => [categoryKey(name), type]),
);

/** The response type of a Smartlead lead category (SMARTLEAD_CATEGORY_RESPONSE_TYPES, else neutral). */
export const smartleadResponseType = (category: string): ResponseType =>
  RESPONSE_TYPE_BY_CATEGORY.get(categoryKey(category)) ?? 'neutral';

const messageFields = { message_id: zId, id: zId, html: zText, text: zText, time: zText };

/** The fields read, each lenient (another type reads as absent); the rest is ignored. */
const smartleadPayload = z.object({
  event_type: zText,
  event: zText,
  campaign_id: zId,
  stats_id: zId,
  sl_lead_email: zText,
  to_email: zText,
  lead_email: zText,
  to: zText,
  from_email: zText,
  from: zText,
  event_timestamp: zTime,
  time_sent: zTime,
  time_opened: zTime,
  time_clicked: zTime,
  time_replied: zTime,
  created_at: zTime,
  timestamp: zTime,
  sequence_number: zId,
  subject: zText,
  custom_subject: zText,
  custom_email_message: zText,
  sent_message_body: zText,
  sent_message: zObject(messageFields),
  message_id: zId,
  reply_message: zObject(messageFields),
  reply_body: zText,
  preview_text: zText,
  category: lenient(z.optional(z.union([z.string(), z.object({ name: zText })]))),
  lead_category_id: zId,
  lead_category: zObject({ new_id: zId, new_name: zText }),
  lead_data: zObject({ email: zText, linkedin_profile: zText, category: zObject({ name: zText }) }),
  // The API overview page's shape.
  lead: zObject({ email: zText }),
  email: zObject({ subject: zText, message_id: zId }),
  reply: zObject({ subject: zText, body: zText, received_at: zTime, message_id: zId }),
});
type SmartleadPayload = z.infer<typeof smartleadPayload>;

/**
 * Fields of the subscription rather than the event: left out of the payload's
 * hash, so one event delivered twice (a retry, a second webhook) hashes alike.
 */
const SUBSCRIPTION_FIELDS = ['secret_key', 'webhook_id', 'webhook_name', 'webhook_url', 'metadata'];

/** The id of the sent email a payload is about (see the header). */
function sentMessageId(p: SmartleadPayload, isReply: boolean): string | null {
  return firstId(
    p.stats_id,
    p.sent_message?.message_id,
    p.sent_message?.id,
    // In EMAIL_REPLY the deprecated top-level message_id is the reply's own.
    isReply ? undefined : p.message_id,
    p.email?.message_id,
  );
}

function categoryName(p: SmartleadPayload): string | null {
  const legacy = typeof p.category === 'string' ? p.category : p.category?.name;
  return firstText(p.lead_category?.new_name, legacy, p.lead_data?.category?.name)?.trim() ?? null;
}

/**
 * What Smartlead's reply endpoint (`POST /campaigns/{campaign_id}/reply-email-thread`,
 * shared/providers/smartlead/client.ts) needs to answer in this thread: the sent email's
 * `stats_id` as `email_stats_id` (required, so no thread without it), and the lead's message being
 * answered, its Message-ID and time as sent. Its body (`reply_email_body`) is left out: it is the
 * lead's text, kept as the message already.
 */
function smartleadReplyThread(
  p: SmartleadPayload,
  replyId: string | null,
): Record<string, string> | undefined {
  const emailStatsId = firstId(p.stats_id);
  if (emailStatsId === null) return undefined;
  const repliedAt = firstText(p.reply_message?.time, p.time_replied, p.event_timestamp);
  return {
    email_stats_id: emailStatsId,
    ...(replyId ? { reply_message_id: replyId } : {}),
    ...(repliedAt ? { reply_email_time: repliedAt } : {}),
  };
}

/** Maps one Smartlead webhook payload; never throws, whatever JSON it is given. */
export function mapSmartleadPayload(payload: unknown): MappedPayload {
  const parsed = smartleadPayload.safeParse(payload);
  const type = parsed.success ? firstText(parsed.data.event_type, parsed.data.event) : null;
  if (!parsed.success || type === null) return ignored('not a Smartlead webhook payload');
  const p = parsed.data;
  const name = eventNameIn(SMARTLEAD_EVENTS, type);
  if (name === undefined) return unsupported(type);
  const kind = SMARTLEAD_EVENTS[name];
  if (kind === 'ignored') return ignored(notRecorded(name, NOT_RECORDED[name]));

  const lead = {
    // sl_lead_email is the lead's own address; to_email may be an alias who replied in the thread.
    email: firstEmail(p.sl_lead_email, p.to_email, p.lead_email, p.lead_data?.email, p.lead?.email, p.to),
    linkedinUrl: linkedinUrl(p.lead_data?.linkedin_profile),
  };
  if (!lead.email && !lead.linkedinUrl) return ignored(`${name} names no lead`);
  const leadKey = lead.email ?? lead.linkedinUrl;
  const campaign = firstId(p.campaign_id);
  const eventTime = [p.event_timestamp, p.time_sent, p.time_opened, p.time_clicked, p.time_replied];
  const id = (parts: (string | null)[]) => eventIdOf('smartlead', parts, payload, SUBSCRIPTION_FIELDS);

  switch (kind) {
    case 'message_sent': {
      const at = firstIsoTime(...eventTime, p.sent_message?.time, p.created_at, p.timestamp);
      const providerMessageId = sentMessageId(p, false);
      const stepIndex = fromOneBased(p.sequence_number);
      const parts = providerMessageId
        ? [kind, providerMessageId]
        : [kind, campaign, leadKey, stepIndex === null ? null : `step-${stepIndex}`];
      return recorded({
        kind,
        eventId: id(parts),
        campaignExternalId: campaign,
        lead,
        at,
        message: message({
          providerMessageId,
          stepType: 'email',
          stepIndex,
          // Smartlead's payloads do not say which A/B variant was sent.
          variantIndex: null,
          subject: firstText(p.subject, p.custom_subject, p.email?.subject),
          body: firstText(
            p.sent_message?.text,
            p.sent_message?.html,
            p.sent_message_body,
            p.custom_email_message,
          ),
          senderEmail: senderEmail(p.from_email, p.from),
        }),
      });
    }
    case 'opened':
    case 'clicked': {
      const at = firstIsoTime(...eventTime, p.created_at, p.timestamp);
      const providerMessageId = sentMessageId(p, false);
      // Opens and clicks repeat for one email: the time tells two apart, a retry repeats it.
      return recorded({
        kind,
        eventId: id([kind, providerMessageId, at]),
        campaignExternalId: campaign,
        lead,
        at,
        providerMessageId,
      });
    }
    case 'reply_received': {
      const at = firstIsoTime(
        ...eventTime,
        p.reply_message?.time,
        p.reply?.received_at,
        p.created_at,
        p.timestamp,
      );
      const replyId = firstId(p.reply_message?.message_id, p.message_id, p.reply?.message_id);
      const replyThread = smartleadReplyThread(p, replyId);
      return recorded({
        kind,
        eventId: id(replyId ? [kind, replyId] : [kind, campaign, leadKey, at]),
        campaignExternalId: campaign,
        lead,
        at,
        ...(replyThread ? { replyThread } : {}),
        message: message({
          providerMessageId: replyId,
          stepType: 'reply',
          subject: firstText(p.subject, p.reply?.subject),
          body: firstText(
            p.reply_message?.text,
            p.preview_text,
            p.reply_message?.html,
            p.reply_body,
            p.reply?.body,
          ),
          senderEmail: senderEmail(lead.email),
        }),
      });
    }
    case 'reply_classified': {
      const category = categoryName(p);
      if (category === null) return ignored(`${name} names no category`);
      const at = firstIsoTime(p.event_timestamp, p.created_at, p.timestamp);
      const categoryId = firstId(p.lead_category?.new_id, p.lead_category_id) ?? category;
      // A lead's category can change back and forth: its time tells two updates apart.
      return recorded({
        kind,
        eventId: id([kind, campaign, leadKey, categoryId, at]),
        campaignExternalId: campaign,
        lead,
        at,
        responseType: smartleadResponseType(category),
      });
    }
    case 'bounced': {
      const at = firstIsoTime(...eventTime, p.created_at, p.timestamp);
      return recorded({
        kind,
        eventId: id([kind, sentMessageId(p, false)]),
        campaignExternalId: campaign,
        lead,
        at,
      });
    }
    case 'unsubscribed': {
      const at = firstIsoTime(...eventTime, p.created_at, p.timestamp);
      // A lead unsubscribes from a campaign once.
      return recorded({
        kind,
        eventId: id([kind, campaign, leadKey]),
        campaignExternalId: campaign,
        lead,
        at,
      });
    }
  }
}
