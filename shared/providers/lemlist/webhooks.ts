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
  fromZeroBased,
  ignored,
  linkedinUrl,
  message,
  notRecorded,
  type ResponseType,
  recorded,
  type StepType,
  senderEmail,
  unsupported,
  variantFromLetter,
  zId,
  zText,
  zTime,
} from '#providers/payloads.ts';

/**
 * lemlist's webhooks as provider activities. A lemlist hook posts the
 * activity itself (developer.lemlist.com, Add Webhook: "we'll call targetUrl
 * with the event data"; the Activity object): `_id` (act_…, unique per
 * activity), `type`, `createdAt`, `campaignId` (cam_…), `leadId`, `leadEmail`,
 * the lead's fields (`linkedinUrl`, `email`, …), `sequenceStep`,
 * `sequenceTested`/`stepTested` (the A/B variant letter), `emailId` (eml_…,
 * the email of that step), `sendUserEmail`, and for replies `text` or
 * `messagePreview`. The docs give the object and the list of types, not one
 * example per type.
 *
 * `sequenceStep` is 0-based: lemlist's campaign statistics list the first step
 * as `index: 1, sequenceStep: 0`. Event ids are the activity's `_id`; the
 * sent email's `emailId` is its provider id, named again by its opens and
 * clicks. A reply's message takes its activity id (never the `emailId` of the
 * email it answers).
 *
 * A reply carries no `replyThread`: lemlist's API documents no way to answer a
 * lead in its thread, so its client has no reply (shared/providers/lemlist/client.ts).
 */

/** What each native activity type becomes (docs/providers.md). */
export const LEMLIST_EVENTS = {
  emailsSent: 'message_sent',
  emailsOpened: 'opened',
  emailsClicked: 'clicked',
  emailsReplied: 'reply_received',
  emailsBounced: 'bounced',
  emailsUnsubscribed: 'unsubscribed',
  emailsInterested: 'reply_classified',
  emailsNotInterested: 'reply_classified',
  emailsFailed: 'ignored',
  emailsSendFailed: 'ignored',
  /** A connection request: linkedin_connect, with the invitation's note when there is one. */
  linkedinInviteDone: 'message_sent',
  linkedinInviteAccepted: 'ignored',
  linkedinInviteFailed: 'ignored',
  linkedinSent: 'message_sent',
  /** A voice note is a LinkedIn message without text. */
  linkedinVoiceNoteDone: 'message_sent',
  linkedinVoiceNoteFailed: 'ignored',
  linkedinOpened: 'opened',
  linkedinReplied: 'reply_received',
  linkedinInterested: 'reply_classified',
  linkedinNotInterested: 'reply_classified',
  linkedinSendFailed: 'ignored',
  /** A profile visit: a linkedin_profile_visit step done, without a message body. */
  linkedinVisitDone: 'message_sent',
  linkedinVisitFailed: 'ignored',
  linkedinFollowDone: 'ignored',
  linkedinFollowFailed: 'ignored',
  linkedinFollowSkipped: 'ignored',
  linkedinEndorseDone: 'ignored',
  linkedinEndorseFailed: 'ignored',
  linkedinEndorseSkipped: 'ignored',
  interested: 'reply_classified',
  notInterested: 'reply_classified',
  manualInterested: 'reply_classified',
  manualNotInterested: 'reply_classified',
  apiInterested: 'reply_classified',
  apiNotInterested: 'reply_classified',
  aircallInterested: 'reply_classified',
  aircallNotInterested: 'reply_classified',
  /** Per lead; one without a lead (the campaign's end) is ignored. */
  campaignComplete: 'completed',
  contacted: 'ignored',
  hooked: 'ignored',
  attracted: 'ignored',
  warmed: 'ignored',
  skipped: 'ignored',
  paused: 'ignored',
  resumed: 'ignored',
  annotated: 'ignored',
  opportunitiesDone: 'ignored',
  aircallCreated: 'ignored',
  aircallEnded: 'ignored',
  aircallDone: 'ignored',
  apiDone: 'ignored',
  apiFailed: 'ignored',
  customDomainErrors: 'ignored',
  connectionIssue: 'ignored',
  sendLimitReached: 'ignored',
  lemwarmPaused: 'ignored',
  enrichmentDone: 'ignored',
  enrichmentError: 'ignored',
  callRecordingDone: 'ignored',
  callTranscriptDone: 'ignored',
  inboxLabelUpdated: 'ignored',
} as const satisfies Record<string, EventOutcome>;
type LemlistEvent = keyof typeof LEMLIST_EVENTS;

/** The step type of what each sending activity sent. */
const SENT_STEP_TYPES: Partial<Record<LemlistEvent, StepType>> = {
  emailsSent: 'email',
  linkedinInviteDone: 'linkedin_connect',
  linkedinSent: 'linkedin_message',
  linkedinVoiceNoteDone: 'linkedin_message',
  linkedinVisitDone: 'linkedin_profile_visit',
};

/** The response type each interest activity sets. */
export const LEMLIST_RESPONSE_TYPES: Readonly<Partial<Record<LemlistEvent, ResponseType>>> = {
  emailsInterested: 'positive',
  linkedinInterested: 'positive',
  interested: 'positive',
  manualInterested: 'positive',
  apiInterested: 'positive',
  aircallInterested: 'positive',
  emailsNotInterested: 'not_interested',
  linkedinNotInterested: 'not_interested',
  notInterested: 'not_interested',
  manualNotInterested: 'not_interested',
  apiNotInterested: 'not_interested',
  aircallNotInterested: 'not_interested',
};

const LEAD_STATE_GROUP =
  'a lead-state group: the activity it stands for is recorded under its own type (emailsSent, …)';
const NOT_RECORDED: Partial<Record<LemlistEvent, string>> = {
  linkedinInviteAccepted:
    'the data model has no connection-accepted event, and the payload carries no message',
  contacted: LEAD_STATE_GROUP,
  hooked: LEAD_STATE_GROUP,
  attracted: LEAD_STATE_GROUP,
  warmed: LEAD_STATE_GROUP,
};
const notRecordedBecause = (name: LemlistEvent): string =>
  NOT_RECORDED[name] ??
  (/Failed$|Skipped$|Errors?$/.test(name)
    ? 'a step that failed or was skipped sent nothing'
    : 'not a provider event the service records');

/** The fields read, each lenient (another type reads as absent); the rest is ignored. */
const lemlistPayload = z.object({
  _id: zId,
  type: zText,
  createdAt: zTime,
  campaignId: zId,
  leadEmail: zText,
  email: zText,
  linkedinUrl: zText,
  sequenceStep: zId,
  sequenceTested: zText,
  stepTested: zText,
  emailId: zId,
  sendUserEmail: zText,
  subject: zText,
  text: zText,
  messagePreview: zText,
});

/** The shared secret a hook may be created with, echoed in each payload: not part of the event. */
const SUBSCRIPTION_FIELDS = ['secret'];

/** Maps one lemlist webhook payload; never throws, whatever JSON it is given. */
export function mapLemlistPayload(payload: unknown): MappedPayload {
  const parsed = lemlistPayload.safeParse(payload);
  const type = parsed.success ? firstText(parsed.data.type) : null;
  if (!parsed.success || type === null) return ignored('not a lemlist webhook payload');
  const p = parsed.data;
  const name = eventNameIn(LEMLIST_EVENTS, type);
  if (name === undefined) return unsupported(type);
  const kind = LEMLIST_EVENTS[name];
  if (kind === 'ignored') return ignored(notRecorded(name, notRecordedBecause(name)));

  const lead = { email: firstEmail(p.leadEmail, p.email), linkedinUrl: linkedinUrl(p.linkedinUrl) };
  if (!lead.email && !lead.linkedinUrl) {
    return ignored(
      kind === 'completed'
        ? `${name} names no lead: the campaign's own end is not recorded`
        : `${name} names no lead`,
    );
  }
  const activityId = firstId(p._id);
  const base = {
    eventId: eventIdOf('lemlist', [activityId], payload, SUBSCRIPTION_FIELDS),
    campaignExternalId: firstId(p.campaignId),
    lead,
    at: firstIsoTime(p.createdAt),
  };
  const emailId = firstId(p.emailId);

  switch (kind) {
    case 'message_sent': {
      const stepType = SENT_STEP_TYPES[name] ?? 'email';
      return recorded({
        ...base,
        kind,
        message: message({
          providerMessageId: emailId,
          stepType,
          stepIndex: fromZeroBased(p.sequenceStep),
          variantIndex: variantFromLetter(p.stepTested) ?? variantFromLetter(p.sequenceTested),
          subject: stepType === 'email' ? firstText(p.subject) : null,
          body: stepType === 'linkedin_profile_visit' ? null : firstText(p.text, p.messagePreview),
          // The sender's address is the assignment's reply mailbox: only an email has one.
          senderEmail: stepType === 'email' ? senderEmail(p.sendUserEmail) : null,
        }),
      });
    }
    case 'opened':
    case 'clicked':
      return recorded({ ...base, kind, providerMessageId: emailId });
    case 'reply_received':
      return recorded({
        ...base,
        kind,
        message: message({
          providerMessageId: activityId,
          stepType: name === 'linkedinReplied' ? 'linkedin_message' : 'reply',
          subject: name === 'linkedinReplied' ? null : firstText(p.subject),
          body: firstText(p.text, p.messagePreview),
          senderEmail: name === 'linkedinReplied' ? null : senderEmail(lead.email),
        }),
      });
    case 'reply_classified':
      return recorded({ ...base, kind, responseType: LEMLIST_RESPONSE_TYPES[name] ?? 'neutral' });
    case 'bounced':
    case 'unsubscribed':
    case 'completed':
      return recorded({ ...base, kind });
  }
}
