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
  message,
  notRecorded,
  type ResponseType,
  recorded,
  senderEmail,
  unsupported,
  zId,
  zText,
  zTime,
} from '#providers/payloads.ts';

/**
 * Instantly's API v2 webhooks as provider activities. Every event is one flat
 * JSON object (developer.instantly.ai/guides/webhook-events): `timestamp`,
 * `event_type`, `workspace`, `campaign_id` (a UUID), `campaign_name`, and as
 * the event has them `lead_email`, `email_account`, `step` and `variant`
 * (both from 1), `email_id`, `email_subject`/`email_text`/`email_html` and
 * `reply_subject`/`reply_text`/`reply_html`/`reply_text_snippet`, plus the
 * lead's own fields as extra keys. Instantly's docs give the schema and the
 * event types, not one example per event.
 *
 * Ids: `email_id` is Instantly's id of the email an event is about, so it is
 * the sent message's provider id and what its opens and clicks name. Of a
 * reply, the docs say both that it is the email "the reply is for" and the
 * `reply_to_uuid` to answer with: the reply's message gets no provider id, so
 * that it can never take the id of the email it answers.
 */

/** What each native event type becomes (docs/providers.md). */
export const INSTANTLY_EVENTS = {
  email_sent: 'message_sent',
  email_opened: 'opened',
  /** The webhook schema's name (api-reference/schemas/webhook); the events guide says link_clicked. */
  email_link_clicked: 'clicked',
  link_clicked: 'clicked',
  reply_received: 'reply_received',
  email_bounced: 'bounced',
  lead_unsubscribed: 'unsubscribed',
  /** Per lead; one without a lead (the campaign's end) is ignored. */
  campaign_completed: 'completed',
  lead_interested: 'reply_classified',
  lead_not_interested: 'reply_classified',
  lead_neutral: 'reply_classified',
  lead_meeting_booked: 'reply_classified',
  lead_out_of_office: 'reply_classified',
  lead_wrong_person: 'reply_classified',
  auto_reply_received: 'ignored',
  account_error: 'ignored',
  lead_meeting_completed: 'ignored',
  lead_closed: 'ignored',
  lead_no_show: 'ignored',
  supersearch_enrichment_completed: 'ignored',
} as const satisfies Record<string, EventOutcome>;
type InstantlyEvent = keyof typeof INSTANTLY_EVENTS;

/** The response type each of Instantly's lead-status events sets. */
export const INSTANTLY_RESPONSE_TYPES: Readonly<Partial<Record<InstantlyEvent, ResponseType>>> = {
  lead_interested: 'positive',
  lead_meeting_booked: 'positive',
  lead_not_interested: 'not_interested',
  lead_neutral: 'neutral',
  lead_out_of_office: 'out_of_office',
  lead_wrong_person: 'wrong_person',
};

const NOT_RECORDED: Partial<Record<InstantlyEvent, string>> = {
  auto_reply_received: 'an automatic reply (an out-of-office) is not the lead replying',
  account_error: 'a sending account error is about an account, not a lead',
  lead_meeting_completed: 'meetings are not provider events',
  lead_closed: 'a closed deal is not a provider event',
  lead_no_show: 'meetings are not provider events',
  supersearch_enrichment_completed: 'an enrichment is not a provider event',
};

/** The fields read, each lenient (another type reads as absent); the rest is ignored. */
const instantlyPayload = z.object({
  timestamp: zTime,
  event_type: zText,
  campaign_id: zId,
  lead_email: zText,
  email: zText,
  email_account: zText,
  step: zId,
  variant: zId,
  email_id: zId,
  email_subject: zText,
  email_text: zText,
  email_html: zText,
  reply_subject: zText,
  reply_text: zText,
  reply_html: zText,
  reply_text_snippet: zText,
});

/** Maps one Instantly webhook payload; never throws, whatever JSON it is given. */
export function mapInstantlyPayload(payload: unknown): MappedPayload {
  const parsed = instantlyPayload.safeParse(payload);
  const type = parsed.success ? firstText(parsed.data.event_type) : null;
  if (!parsed.success || type === null) return ignored('not an Instantly webhook payload');
  const p = parsed.data;
  const name = eventNameIn(INSTANTLY_EVENTS, type);
  if (name === undefined) return unsupported(type);
  const kind = INSTANTLY_EVENTS[name];
  if (kind === 'ignored') return ignored(notRecorded(name, NOT_RECORDED[name]));

  // `email` is the lead's own field, merged into the payload when Instantly has it.
  const lead = { email: firstEmail(p.lead_email, p.email), linkedinUrl: null };
  if (lead.email === null) {
    return ignored(
      kind === 'completed'
        ? `${name} names no lead: the campaign's own end is not recorded`
        : `${name} names no lead`,
    );
  }
  const campaign = firstId(p.campaign_id);
  const at = firstIsoTime(p.timestamp);
  const emailId = firstId(p.email_id);
  // Instantly has no event ids: ids are built from the email's, else the payload is hashed.
  const id = (parts: (string | null)[]) => eventIdOf('instantly', parts, payload);

  switch (kind) {
    case 'message_sent':
      return recorded({
        kind,
        eventId: id([kind, emailId]),
        campaignExternalId: campaign,
        lead,
        at,
        message: message({
          providerMessageId: emailId,
          stepType: 'email',
          stepIndex: fromOneBased(p.step),
          variantIndex: fromOneBased(p.variant),
          subject: firstText(p.email_subject),
          body: firstText(p.email_text, p.email_html),
          senderEmail: senderEmail(p.email_account),
        }),
      });
    case 'opened':
    case 'clicked':
      // Opens and clicks repeat for one email: the time tells two apart, a retry repeats it.
      return recorded({
        kind,
        eventId: id([kind, emailId, at]),
        campaignExternalId: campaign,
        lead,
        at,
        providerMessageId: emailId,
      });
    case 'reply_received': {
      // What `POST /api/v2/emails/reply` needs (shared/providers/instantly/client.ts): the
      // email to answer (`email_id`, which the docs call the reply_to_uuid) and the mailbox it came
      // through. Both or no thread.
      const eaccount = firstText(p.email_account);
      const replyThread = emailId && eaccount ? { reply_to_uuid: emailId, eaccount } : undefined;
      return recorded({
        kind,
        eventId: id([kind, campaign, lead.email, emailId, at]),
        campaignExternalId: campaign,
        lead,
        at,
        ...(replyThread ? { replyThread } : {}),
        message: message({
          providerMessageId: null,
          stepType: 'reply',
          subject: firstText(p.reply_subject),
          body: firstText(p.reply_text, p.reply_html, p.reply_text_snippet),
          senderEmail: senderEmail(lead.email),
        }),
      });
    }
    case 'reply_classified':
      return recorded({
        kind,
        eventId: id([name, campaign, lead.email, at]),
        campaignExternalId: campaign,
        lead,
        at,
        responseType: INSTANTLY_RESPONSE_TYPES[name] ?? 'neutral',
      });
    case 'bounced':
      return recorded({ kind, eventId: id([kind, emailId]), campaignExternalId: campaign, lead, at });
    case 'unsubscribed':
    case 'completed':
      // Once per lead and campaign.
      return recorded({
        kind,
        eventId: id([kind, campaign, lead.email]),
        campaignExternalId: campaign,
        lead,
        at,
      });
  }
}
