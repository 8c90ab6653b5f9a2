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
  hashEventId,
  ignored,
  isoTime,
  linkedinUrl,
  message,
  notRecorded,
  recorded,
  type StepType,
  unsupported,
  zBoolean,
  zId,
  zObject,
  zText,
  zTime,
} from '#providers/payloads.ts';
import { lenient } from '#schemas/lenient.ts';

/**
 * HeyReach's webhooks as provider activities. HeyReach's API documentation
 * (documenter.getpostman.com/view/23808049/2sA2xb5F75, PublicWebhooks) lists
 * the event types a webhook subscribes to but shows no payload; the fields
 * read here are those HeyReach's payloads carry: `event_type` (sent in lower
 * case), `timestamp`, `correlation_id`, `campaign {id, name}`, `sender` (the
 * LinkedIn account), `lead {id, profile_url, email_address, enriched_email,
 * …}`, `connection_message` for a connection request, and for messages
 * `conversation_id`, `is_inmail` and `recent_messages [{creation_time,
 * message, is_reply}]`. The camelCase spellings of the API's lead objects are
 * read too.
 *
 * Ids: HeyReach gives no event or message ids. A reply's event id is its
 * conversation and time, so the same reply reported by MESSAGE_REPLY_RECEIVED
 * and EVERY_MESSAGE_REPLY_RECEIVED is one event; any other event's is the hash
 * of its payload without `correlation_id`, whose stability across retries is
 * not documented.
 */

/** What each native event type becomes (docs/providers.md). */
export const HEYREACH_EVENTS = {
  /** A connection request: linkedin_connect, with its note when there is one. */
  CONNECTION_REQUEST_SENT: 'message_sent',
  CONNECTION_REQUEST_ACCEPTED: 'ignored',
  MESSAGE_SENT: 'message_sent',
  INMAIL_SENT: 'message_sent',
  MESSAGE_REPLY_RECEIVED: 'reply_received',
  INMAIL_REPLY_RECEIVED: 'reply_received',
  /** Replies in every conversation of the account, campaign or not: one reply is one event with MESSAGE_REPLY_RECEIVED. */
  EVERY_MESSAGE_REPLY_RECEIVED: 'reply_received',
  /** A profile visit: a linkedin_profile_visit step done, without a message body. */
  VIEWED_PROFILE: 'message_sent',
  /** Per lead; one without a lead (the campaign's end) is ignored. */
  CAMPAIGN_COMPLETED: 'completed',
  FOLLOW_SENT: 'ignored',
  LIKED_POST: 'ignored',
  LEAD_TAG_UPDATED: 'ignored',
} as const satisfies Record<string, EventOutcome>;
type HeyreachEvent = keyof typeof HEYREACH_EVENTS;

const SENT_STEP_TYPES: Partial<Record<HeyreachEvent, StepType>> = {
  CONNECTION_REQUEST_SENT: 'linkedin_connect',
  MESSAGE_SENT: 'linkedin_message',
  INMAIL_SENT: 'linkedin_inmail',
  VIEWED_PROFILE: 'linkedin_profile_visit',
};

const NOT_RECORDED: Partial<Record<HeyreachEvent, string>> = {
  CONNECTION_REQUEST_ACCEPTED:
    "the data model has no connection-accepted event, and the payload carries no new message (only the invitation's note)",
  FOLLOW_SENT: 'a follow is not a step type the service records',
  LIKED_POST: 'a liked post is not a step type the service records',
  LEAD_TAG_UPDATED: 'a tag change is not a provider event',
};

const recentMessage = lenient(
  z.optional(z.object({ creation_time: zTime, message: zText, is_reply: zBoolean })),
);
const person = {
  id: zId,
  profile_url: zText,
  profileUrl: zText,
  linkedInUrl: zText,
  email_address: zText,
  emailAddress: zText,
  enriched_email: zText,
  custom_email: zText,
};

/** The fields read, each lenient (another type reads as absent); the rest is ignored. */
const heyreachPayload = z.object({
  event_type: zText,
  eventType: zText,
  timestamp: zTime,
  campaign: zObject({ id: zId }),
  campaignId: zId,
  lead: zObject(person),
  sender: zObject(person),
  connection_message: zText,
  conversation_id: zId,
  recent_messages: lenient(z.optional(z.array(recentMessage))),
});
type HeyreachPayload = z.infer<typeof heyreachPayload>;

/** Left out of the payload's hash (see the header). */
const DELIVERY_FIELDS = ['correlation_id'];

/** The newest of the conversation's messages from the lead (`is_reply`) or to the lead. */
function newestMessage(p: HeyreachPayload, fromLead: boolean) {
  let newest: { text: string | null; at: string | null } | null = null;
  for (const item of p.recent_messages ?? []) {
    if (!item || (item.is_reply === true) !== fromLead) continue;
    const at = isoTime(item.creation_time);
    // Without times, the last one listed is taken.
    if (newest === null || at === null || newest.at === null || at >= newest.at) {
      newest = { text: firstText(item.message), at };
    }
  }
  return newest;
}

/** Maps one HeyReach webhook payload; never throws, whatever JSON it is given. */
export function mapHeyreachPayload(payload: unknown): MappedPayload {
  const parsed = heyreachPayload.safeParse(payload);
  const type = parsed.success ? firstText(parsed.data.event_type, parsed.data.eventType) : null;
  if (!parsed.success || type === null) return ignored('not a HeyReach webhook payload');
  const p = parsed.data;
  const name = eventNameIn(HEYREACH_EVENTS, type);
  if (name === undefined) return unsupported(type);
  const kind = HEYREACH_EVENTS[name];
  if (kind === 'ignored') return ignored(notRecorded(name, NOT_RECORDED[name]));

  const lead = {
    email: firstEmail(
      p.lead?.email_address,
      p.lead?.emailAddress,
      p.lead?.enriched_email,
      p.lead?.custom_email,
    ),
    linkedinUrl: linkedinUrl(p.lead?.profile_url, p.lead?.profileUrl, p.lead?.linkedInUrl),
  };
  if (!lead.email && !lead.linkedinUrl) {
    return ignored(
      kind === 'completed'
        ? `${name} names no lead: the campaign's own end is not recorded`
        : `${name} names no lead`,
    );
  }
  const base = { campaignExternalId: firstId(p.campaign?.id, p.campaignId), lead };
  const hashedId = hashEventId('heyreach', payload, DELIVERY_FIELDS);

  switch (kind) {
    case 'message_sent': {
      const stepType = SENT_STEP_TYPES[name] ?? 'linkedin_message';
      const sent = newestMessage(p, false);
      const body =
        stepType === 'linkedin_connect'
          ? firstText(p.connection_message)
          : stepType === 'linkedin_profile_visit'
            ? null
            : (sent?.text ?? null);
      return recorded({
        ...base,
        kind,
        eventId: hashedId,
        at: firstIsoTime(p.timestamp, sent?.at),
        message: message({
          providerMessageId: null,
          stepType,
          // HeyReach's payloads do not say which step of the sequence sent it.
          stepIndex: null,
          variantIndex: null,
          body,
          // The sender's address is the assignment's reply mailbox; the LinkedIn account's email is not one.
          senderEmail: null,
        }),
      });
    }
    case 'reply_received': {
      const reply = newestMessage(p, true);
      const at = firstIsoTime(reply?.at, p.timestamp);
      // What `POST /inbox/SendMessage` needs (shared/providers/heyreach/client.ts): the
      // conversation and the LinkedIn account (the payload's `sender`) that holds it. Both or no thread.
      const conversationId = firstId(p.conversation_id);
      const linkedInAccountId = firstId(p.sender?.id);
      const replyThread =
        conversationId && linkedInAccountId ? { conversationId, linkedInAccountId } : undefined;
      return recorded({
        ...base,
        kind,
        ...(replyThread ? { replyThread } : {}),
        eventId: eventIdOf(
          'heyreach',
          [kind, firstId(p.conversation_id), reply?.at],
          payload,
          DELIVERY_FIELDS,
        ),
        at,
        message: message({
          providerMessageId: null,
          stepType: 'linkedin_message',
          body: reply?.text ?? null,
        }),
      });
    }
    case 'completed': {
      // A lead finishes a campaign once.
      const parts = [kind, base.campaignExternalId, lead.linkedinUrl ?? lead.email];
      return recorded({
        ...base,
        kind,
        eventId: eventIdOf('heyreach', parts, payload, DELIVERY_FIELDS),
        at: firstIsoTime(p.timestamp),
      });
    }
  }
}
