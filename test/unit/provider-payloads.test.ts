import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PROVIDERS } from '#definitions/providers.ts';
import { canonicalJson } from '#platform/canonical-json.ts';
import {
  type MappedPayload,
  PROVIDER_ACTIVITY_KINDS,
  type ProviderActivity,
  type ProviderActivityMessage,
} from '#providers/activity.ts';
import { HEYREACH_EVENTS } from '#providers/heyreach/webhooks.ts';
import { INSTANTLY_EVENTS } from '#providers/instantly/webhooks.ts';
import { LEMLIST_EVENTS } from '#providers/lemlist/webhooks.ts';
import {
  type EventOutcome,
  isoTime,
  MAX_BODY_LENGTH,
  MAX_SUBJECT_LENGTH,
  normalizeEmail,
  truncate,
} from '#providers/payloads.ts';
import {
  SMARTLEAD_CATEGORY_RESPONSE_TYPES,
  SMARTLEAD_EVENTS,
  smartleadResponseType,
} from '#providers/smartlead/webhooks.ts';
import { neverThrowing, payloadMappers } from '#providers/webhooks.ts';
import { type Provider, providerEvent } from '#schemas/import.ts';
import {
  type ProviderFixture,
  providerFixture,
  providerFixtures,
  withTarget,
} from '../fixtures/providers/index.ts';

/** Every provider's adapter, as the consumer loads them. */
const PROVIDER_PAYLOAD_MAPPERS = await payloadMappers();

/**
 * The provider adapters (shared/providers/<provider>/webhooks.ts) against every
 * documented payload kept in test/fixtures/providers/: what each becomes, that
 * a retry keeps its event id and two real events do not share one, and that
 * no JSON value whatever makes an adapter throw or produce an event the
 * service would refuse.
 */

const EVENT_TABLES: Record<Provider, Readonly<Record<string, EventOutcome>>> = {
  smartlead: SMARTLEAD_EVENTS,
  instantly: INSTANTLY_EVENTS,
  lemlist: LEMLIST_EVENTS,
  heyreach: HEYREACH_EVENTS,
};

const map = (provider: Provider, payload: unknown): MappedPayload =>
  PROVIDER_PAYLOAD_MAPPERS[provider](payload);

function onlyActivity(mapped: MappedPayload): ProviderActivity {
  if ('ignored' in mapped) throw new Error(`expected an activity, got ignored: ${mapped.ignored}`);
  expect(mapped.activities).toHaveLength(1);
  return mapped.activities[0]!;
}

const hashed = (provider: Provider) => expect.stringMatching(new RegExp(`^${provider}:sha256:[0-9a-f]{64}$`));

// ---------------------------------------------------------------------------------------------
// What each fixture becomes
// ---------------------------------------------------------------------------------------------

const JANE = { email: 'jane.doe@example.com', linkedinUrl: null };
const JANE_WITH_LINKEDIN = {
  email: 'jane.doe@example.com',
  linkedinUrl: 'https://www.linkedin.com/in/jane-doe-example',
};
const MAILBOX = 'tom@northwind-mail.example';

const SL_CAMPAIGN = '123456';
const SL_STATS = 'a891fe37-c45d-41e8-97ba-fcd44e9c33a8';
const SL_REPLY = '<CAJZgRaRf=B4WEPmv4gujBNmJE46XpNbWiN7V_DHsAvyvqgEpDg@mail.example.com>';
const SL_SENT_TEXT =
  'Hi Jane,\nFollowing up on my note about month-end close at Acme. Worth a 15-minute call next week?\nTom';
const REF_LEAD = { email: 'lead@example.com', linkedinUrl: null };

const IN_CAMPAIGN = '8c7a1d52-3b1f-4e2a-9c55-6f0e2a1b9d41';
const IN_EMAIL = '0199a7f0-4c2e-7b61-9d3a-5e8f1c0b2a47';

const LL_CAMPAIGN = 'cam_Fx7q2Lk9PmWs3RtYu';
const LL_EMAIL = 'eml_aaFHxT2ejiz7apYnn';

const HR_CAMPAIGN = '274079';
const HR_CONVERSATION = '2-ZmE3NzQ1ZjItYjE3Ni00YjJmLWE1OTQtN2Q2ZmQ4MDM3ZWQ2XzAxMA==';
const HR_INMAIL_CONVERSATION = '2-YjdhMGY2NmQtM2E1Yi00ZTFiLWJmNDctOWM3ZGE0ZjFkMmM3XzAxMA==';
/** The LinkedIn account (the payload's `sender`) holding the conversations. */
const HR_SENDER_ACCOUNT = '113298';

const sentMessage = (fields: Partial<ProviderActivityMessage>): ProviderActivityMessage => ({
  providerMessageId: null,
  stepType: 'email',
  stepIndex: null,
  variantIndex: null,
  subject: null,
  body: null,
  senderEmail: null,
  ...fields,
});

type Expected = ProviderActivity | { ignored: RegExp };

/** Every fixture file's expected mapping: a fixture without one fails the test below. */
const EXPECTED: Record<string, Expected> = {
  // Smartlead ------------------------------------------------------------------------------
  'smartlead/EMAIL_SENT.json': {
    kind: 'message_sent',
    eventId: `smartlead:message_sent:${SL_STATS}`,
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T09:15:04.118Z',
    message: sentMessage({
      providerMessageId: SL_STATS,
      stepIndex: 1,
      subject: 'Re: Month-end close at Acme',
      body: SL_SENT_TEXT,
      senderEmail: MAILBOX,
    }),
  },
  'smartlead/FIRST_EMAIL_SENT.json': {
    kind: 'message_sent',
    eventId: 'smartlead:message_sent:5d20c7b1-8e43-4f6a-b2d9-0c17e6a4f952',
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE,
    at: '2026-02-26T09:02:41.530Z',
    message: sentMessage({
      providerMessageId: '5d20c7b1-8e43-4f6a-b2d9-0c17e6a4f952',
      stepIndex: 0,
      subject: 'Month-end close at Acme',
      body: 'Hi Jane,\nNoticed Acme is hiring two controllers. How is month-end close going?\nTom',
      senderEmail: MAILBOX,
    }),
  },
  'smartlead/EMAIL_OPEN.json': {
    kind: 'opened',
    eventId: `smartlead:opened:${SL_STATS}:2026-03-02T11:40:27.504Z`,
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T11:40:27.504Z',
    providerMessageId: SL_STATS,
  },
  'smartlead/EMAIL_LINK_CLICK.json': {
    kind: 'clicked',
    eventId: `smartlead:clicked:${SL_STATS}:2026-03-02T11:41:02.227Z`,
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T11:41:02.227Z',
    providerMessageId: SL_STATS,
  },
  'smartlead/EMAIL_REPLY.json': {
    kind: 'reply_received',
    eventId: `smartlead:reply_received:${SL_REPLY}`,
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE,
    at: '2026-03-03T14:05:51.000Z',
    message: sentMessage({
      providerMessageId: SL_REPLY,
      stepType: 'reply',
      subject: 'Re: Month-end close at Acme',
      body: 'Hi Tom, yes, close is painful right now. Tuesday 10am works.\n\nOn Mon, Mar 2, 2026 Tom wrote: ...',
      senderEmail: JANE.email,
    }),
    // What Smartlead's reply-email-thread endpoint needs to answer in this thread.
    replyThread: {
      email_stats_id: SL_STATS,
      reply_message_id: SL_REPLY,
      reply_email_time: '2026-03-03T14:05:51.000Z',
    },
  },
  'smartlead/EMAIL_BOUNCE.json': {
    kind: 'bounced',
    eventId: `smartlead:bounced:${SL_STATS}`,
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T09:15:22.904Z',
  },
  'smartlead/LEAD_UNSUBSCRIBED.json': {
    kind: 'unsubscribed',
    eventId: `smartlead:unsubscribed:${SL_CAMPAIGN}:jane.doe@example.com`,
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE,
    at: '2026-03-04T08:12:09.671Z',
  },
  'smartlead/LEAD_CATEGORY_UPDATED.json': {
    kind: 'reply_classified',
    eventId: `smartlead:reply_classified:${SL_CAMPAIGN}:jane.doe@example.com:2:2026-03-03T14:09:40.120Z`,
    campaignExternalId: SL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-03T14:09:40.120Z',
    responseType: 'positive',
  },
  'smartlead/EMAIL_SENT.api-reference.json': {
    kind: 'message_sent',
    eventId: 'smartlead:message_sent:abc123def456',
    campaignExternalId: '123',
    lead: REF_LEAD,
    at: '2025-01-15T09:00:00.000Z',
    message: sentMessage({
      providerMessageId: 'abc123def456',
      stepIndex: 0,
      subject: 'Quick question about Acme Corp',
      body: '<html>Email body content...</html>',
      senderEmail: 'sender@yourcompany.com',
    }),
  },
  'smartlead/EMAIL_OPEN.api-reference.json': {
    kind: 'opened',
    eventId: hashed('smartlead'),
    campaignExternalId: '123',
    lead: REF_LEAD,
    at: '2025-01-15T10:30:00.000Z',
    providerMessageId: null,
  },
  'smartlead/EMAIL_LINK_CLICK.api-reference.json': {
    kind: 'clicked',
    eventId: hashed('smartlead'),
    campaignExternalId: '123',
    lead: REF_LEAD,
    at: '2025-01-15T10:45:00.000Z',
    providerMessageId: null,
  },
  'smartlead/EMAIL_REPLY.api-reference.json': {
    kind: 'reply_received',
    eventId: 'smartlead:reply_received:123:lead@example.com:2025-01-15T11:00:00.000Z',
    campaignExternalId: '123',
    lead: REF_LEAD,
    at: '2025-01-15T11:00:00.000Z',
    message: sentMessage({
      stepType: 'reply',
      subject: 'Re: Quick question about Acme Corp',
      body: "Thanks for reaching out. I'm interested...",
      senderEmail: 'lead@example.com',
    }),
  },
  // The API overview's shape: the reply nested, no stats_id, so no thread to answer in (email instead).
  'smartlead/EMAIL_REPLIED.api-overview.json': {
    kind: 'reply_received',
    eventId: 'smartlead:reply_received:reply-abc123',
    campaignExternalId: '123',
    lead: REF_LEAD,
    at: '2024-01-15T11:00:00.000Z',
    message: sentMessage({
      providerMessageId: 'reply-abc123',
      stepType: 'reply',
      subject: 'Re: Quick question',
      body: "Thanks for reaching out. I'm interested...",
      senderEmail: 'lead@example.com',
    }),
  },
  'smartlead/LEAD_UNSUBSCRIBED.api-reference.json': {
    kind: 'unsubscribed',
    eventId: 'smartlead:unsubscribed:123:lead@example.com',
    campaignExternalId: '123',
    lead: REF_LEAD,
    at: null,
  },
  'smartlead/LEAD_CATEGORY_UPDATED.api-reference.json': {
    kind: 'reply_classified',
    // No time in the example: a category update without one is told apart by its whole payload.
    eventId: hashed('smartlead'),
    campaignExternalId: '123',
    lead: { email: 'lead@example.com', linkedinUrl: 'https://linkedin.com/in/johndoe' },
    at: null,
    responseType: 'positive',
  },

  // Instantly ------------------------------------------------------------------------------
  'instantly/email_sent.json': {
    kind: 'message_sent',
    eventId: `instantly:message_sent:${IN_EMAIL}`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T09:15:04.118Z',
    message: sentMessage({
      providerMessageId: IN_EMAIL,
      stepIndex: 1,
      variantIndex: 1,
      subject: 'Re: Month-end close at Acme',
      body: SL_SENT_TEXT,
      senderEmail: MAILBOX,
    }),
  },
  'instantly/email_opened.json': {
    kind: 'opened',
    eventId: `instantly:opened:${IN_EMAIL}:2026-03-02T11:40:27.504Z`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T11:40:27.504Z',
    providerMessageId: IN_EMAIL,
  },
  'instantly/email_link_clicked.json': {
    kind: 'clicked',
    eventId: `instantly:clicked:${IN_EMAIL}:2026-03-02T11:41:02.227Z`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T11:41:02.227Z',
    providerMessageId: IN_EMAIL,
  },
  'instantly/reply_received.json': {
    kind: 'reply_received',
    eventId: `instantly:reply_received:${IN_CAMPAIGN}:jane.doe@example.com:0199a7f5-1d0b-7e42-8a6c-3b9e2f7d1c05:2026-03-03T14:05:51.000Z`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-03T14:05:51.000Z',
    message: sentMessage({
      stepType: 'reply',
      subject: 'Re: Month-end close at Acme',
      body: 'Hi Tom, yes, close is painful right now. Tuesday 10am works.\n\nOn Mon, Mar 2, 2026 Tom wrote: ...',
      senderEmail: JANE.email,
    }),
    // What Instantly's POST /api/v2/emails/reply needs: the email answered and the mailbox.
    replyThread: { reply_to_uuid: '0199a7f5-1d0b-7e42-8a6c-3b9e2f7d1c05', eaccount: MAILBOX },
  },
  'instantly/email_bounced.json': {
    kind: 'bounced',
    eventId: `instantly:bounced:${IN_EMAIL}`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-02T09:15:22.904Z',
  },
  'instantly/lead_unsubscribed.json': {
    kind: 'unsubscribed',
    eventId: `instantly:unsubscribed:${IN_CAMPAIGN}:jane.doe@example.com`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-04T08:12:09.671Z',
  },
  'instantly/lead_interested.json': {
    kind: 'reply_classified',
    eventId: `instantly:lead_interested:${IN_CAMPAIGN}:jane.doe@example.com:2026-03-03T14:09:40.120Z`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-03T14:09:40.120Z',
    responseType: 'positive',
  },
  'instantly/lead_not_interested.json': {
    kind: 'reply_classified',
    eventId: `instantly:lead_not_interested:${IN_CAMPAIGN}:jane.doe@example.com:2026-03-03T14:11:02.800Z`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-03T14:11:02.800Z',
    responseType: 'not_interested',
  },
  'instantly/lead_neutral.json': {
    kind: 'reply_classified',
    eventId: `instantly:lead_neutral:${IN_CAMPAIGN}:jane.doe@example.com:2026-03-03T14:12:15.300Z`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-03T14:12:15.300Z',
    responseType: 'neutral',
  },
  'instantly/campaign_completed.json': {
    kind: 'completed',
    eventId: `instantly:completed:${IN_CAMPAIGN}:jane.doe@example.com`,
    campaignExternalId: IN_CAMPAIGN,
    lead: JANE,
    at: '2026-03-20T17:00:03.412Z',
  },
  'instantly/campaign_completed.campaign-level.json': { ignored: /^campaign_completed names no lead/ },

  // lemlist --------------------------------------------------------------------------------
  'lemlist/emailsSent.json': {
    kind: 'message_sent',
    eventId: 'lemlist:act_aaXiFy3Y7BNSuYwDr',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-02T09:15:04.172Z',
    message: sentMessage({
      providerMessageId: LL_EMAIL,
      stepIndex: 1,
      variantIndex: 1,
      senderEmail: MAILBOX,
    }),
  },
  'lemlist/emailsOpened.json': {
    kind: 'opened',
    eventId: 'lemlist:act_aaK3pQ7wZ1mB8vYtR',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-02T11:40:27.504Z',
    providerMessageId: LL_EMAIL,
  },
  'lemlist/emailsClicked.json': {
    kind: 'clicked',
    eventId: 'lemlist:act_aaN5rT2yX8cD4wQeL',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-02T11:41:02.227Z',
    providerMessageId: LL_EMAIL,
  },
  'lemlist/emailsReplied.json': {
    kind: 'reply_received',
    eventId: 'lemlist:act_aaP7sV4uA6eF2xRgM',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-03T14:05:51.000Z',
    message: sentMessage({
      providerMessageId: 'act_aaP7sV4uA6eF2xRgM',
      stepType: 'reply',
      subject: 'Re: Month-end close at Acme',
      body: 'Hi Tom, yes, close is painful right now. Tuesday 10am works.',
      senderEmail: JANE.email,
    }),
  },
  'lemlist/emailsBounced.json': {
    kind: 'bounced',
    eventId: 'lemlist:act_aaQ9tW6vB4gH1yShN',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-02T09:15:22.904Z',
  },
  'lemlist/emailsUnsubscribed.json': {
    kind: 'unsubscribed',
    eventId: 'lemlist:act_aaR2uX8wC3hJ5zTiP',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-04T08:12:09.671Z',
  },
  'lemlist/emailsInterested.json': {
    kind: 'reply_classified',
    eventId: 'lemlist:act_aaS4vY1xD2jK7aUjQ',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-03T14:09:40.120Z',
    responseType: 'positive',
  },
  'lemlist/emailsNotInterested.json': {
    kind: 'reply_classified',
    eventId: 'lemlist:act_aaT6wZ3yE1kL9bVkR',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-03T14:11:02.800Z',
    responseType: 'not_interested',
  },
  'lemlist/linkedinVisitDone.json': {
    kind: 'message_sent',
    eventId: 'lemlist:act_aaU8xA5zF9mM2cWlS',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-26T09:00:12.000Z',
    message: sentMessage({ stepType: 'linkedin_profile_visit', stepIndex: 0 }),
  },
  'lemlist/linkedinInviteDone.json': {
    kind: 'message_sent',
    eventId: 'lemlist:act_aaV1yB7aG8nN4dXmT',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-27T09:03:44.870Z',
    message: sentMessage({ stepType: 'linkedin_connect', stepIndex: 1 }),
  },
  'lemlist/linkedinInviteAccepted.json': {
    ignored: /^connection accepted is not recorded \(linkedinInviteAccepted\): the data model has no/,
  },
  'lemlist/linkedinSent.json': {
    kind: 'message_sent',
    eventId: 'lemlist:act_aaW3zC9bH7pP6eYnU',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T10:20:31.415Z',
    message: sentMessage({ stepType: 'linkedin_message', stepIndex: 2 }),
  },
  'lemlist/linkedinReplied.json': {
    kind: 'reply_received',
    eventId: 'lemlist:act_aaX5aD1cJ6qQ8fZoV',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T16:02:09.877Z',
    message: sentMessage({
      providerMessageId: 'act_aaX5aD1cJ6qQ8fZoV',
      stepType: 'linkedin_message',
      body: 'Thanks Tom, happy to chat. I am free Thursday afternoon.',
    }),
  },
  'lemlist/linkedinInterested.json': {
    kind: 'reply_classified',
    eventId: 'lemlist:act_aaY7bE3dK5rR1gApW',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T16:10:00.000Z',
    responseType: 'positive',
  },
  'lemlist/linkedinNotInterested.json': {
    kind: 'reply_classified',
    eventId: 'lemlist:act_aaZ9cF5eL4sS3hBqX',
    campaignExternalId: LL_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T16:12:30.000Z',
    responseType: 'not_interested',
  },

  // HeyReach -------------------------------------------------------------------------------
  'heyreach/CONNECTION_REQUEST_SENT.json': {
    kind: 'message_sent',
    eventId: hashed('heyreach'),
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-27T09:03:44.000Z',
    message: sentMessage({
      stepType: 'linkedin_connect',
      body: 'Hi Jane, I work with finance teams on month-end close. Would be glad to connect.',
    }),
  },
  'heyreach/CONNECTION_REQUEST_ACCEPTED.json': {
    ignored: /^connection accepted is not recorded \(CONNECTION_REQUEST_ACCEPTED\): the data model has no/,
  },
  'heyreach/MESSAGE_SENT.json': {
    kind: 'message_sent',
    eventId: hashed('heyreach'),
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T10:20:31.000Z',
    message: sentMessage({
      stepType: 'linkedin_message',
      body: 'Thanks for connecting, Jane. How is month-end close going at Acme?',
    }),
  },
  'heyreach/INMAIL_SENT.json': {
    kind: 'message_sent',
    eventId: hashed('heyreach'),
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T10:25:10.000Z',
    message: sentMessage({
      stepType: 'linkedin_inmail',
      body: 'Jane, a quick note on month-end close: we cut it to 4 days at two firms like Acme. Open to compare notes?',
    }),
  },
  'heyreach/MESSAGE_REPLY_RECEIVED.json': {
    kind: 'reply_received',
    eventId: `heyreach:reply_received:${HR_CONVERSATION}:2026-02-28T16:02:09.877Z`,
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T16:02:09.877Z',
    message: sentMessage({
      stepType: 'linkedin_message',
      body: 'Thanks Tom, happy to chat. I am free Thursday afternoon.',
    }),
    // What HeyReach's POST /inbox/SendMessage needs: the conversation and the sender's LinkedIn account.
    replyThread: { conversationId: HR_CONVERSATION, linkedInAccountId: HR_SENDER_ACCOUNT },
  },
  'heyreach/EVERY_MESSAGE_REPLY_RECEIVED.json': {
    kind: 'reply_received',
    eventId: `heyreach:reply_received:${HR_CONVERSATION}:2026-02-28T16:02:09.877Z`,
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-28T16:02:09.877Z',
    message: sentMessage({
      stepType: 'linkedin_message',
      body: 'Thanks Tom, happy to chat. I am free Thursday afternoon.',
    }),
    replyThread: { conversationId: HR_CONVERSATION, linkedInAccountId: HR_SENDER_ACCOUNT },
  },
  'heyreach/INMAIL_REPLY_RECEIVED.json': {
    kind: 'reply_received',
    eventId: `heyreach:reply_received:${HR_INMAIL_CONVERSATION}:2026-03-01T08:45:32.118Z`,
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-01T08:45:32.118Z',
    message: sentMessage({ stepType: 'linkedin_message', body: 'Sure, send me a few times next week.' }),
    replyThread: { conversationId: HR_INMAIL_CONVERSATION, linkedInAccountId: HR_SENDER_ACCOUNT },
  },
  'heyreach/VIEWED_PROFILE.json': {
    kind: 'message_sent',
    eventId: hashed('heyreach'),
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-02-26T09:00:12.000Z',
    message: sentMessage({ stepType: 'linkedin_profile_visit' }),
  },
  'heyreach/CAMPAIGN_COMPLETED.json': {
    kind: 'completed',
    eventId: `heyreach:completed:${HR_CAMPAIGN}:https://www.linkedin.com/in/jane-doe-example`,
    campaignExternalId: HR_CAMPAIGN,
    lead: JANE_WITH_LINKEDIN,
    at: '2026-03-20T17:00:03.000Z',
  },
};

const fixtures = providerFixtures();
const byName = (fixture: ProviderFixture) => fixture.file;

describe('provider fixtures', () => {
  it('are documented: each names its source and a native event type its provider knows', () => {
    for (const fixture of fixtures) {
      expect(fixture.source, fixture.file).toMatch(/https:\/\//);
      expect(Object.keys(EVENT_TABLES[fixture.provider]), fixture.file).toContain(fixture.event);
    }
  });

  it('cover the event types the service needs from each provider', () => {
    const events = (provider: Provider) =>
      fixtures.filter((f) => f.provider === provider).map((f) => f.event);
    expect(events('smartlead')).toEqual(
      expect.arrayContaining([
        'EMAIL_SENT',
        'FIRST_EMAIL_SENT',
        'EMAIL_OPEN',
        'EMAIL_LINK_CLICK',
        'EMAIL_REPLY',
        'EMAIL_BOUNCE',
        'LEAD_UNSUBSCRIBED',
        'LEAD_CATEGORY_UPDATED',
      ]),
    );
    expect(events('instantly')).toEqual(
      expect.arrayContaining([
        'email_sent',
        'email_opened',
        'email_link_clicked',
        'reply_received',
        'email_bounced',
        'lead_unsubscribed',
        'lead_interested',
        'lead_not_interested',
        'lead_neutral',
        'campaign_completed',
      ]),
    );
    expect(events('lemlist')).toEqual(
      expect.arrayContaining([
        'emailsSent',
        'emailsOpened',
        'emailsClicked',
        'emailsReplied',
        'emailsBounced',
        'emailsUnsubscribed',
        'emailsInterested',
        'emailsNotInterested',
        'linkedinInviteDone',
        'linkedinInviteAccepted',
        'linkedinSent',
        'linkedinReplied',
        'linkedinInterested',
        'linkedinNotInterested',
        'linkedinVisitDone',
      ]),
    );
    expect(events('heyreach')).toEqual(
      expect.arrayContaining([
        'CONNECTION_REQUEST_SENT',
        'CONNECTION_REQUEST_ACCEPTED',
        'MESSAGE_SENT',
        'MESSAGE_REPLY_RECEIVED',
        'INMAIL_SENT',
        'INMAIL_REPLY_RECEIVED',
        'CAMPAIGN_COMPLETED',
      ]),
    );
  });

  it('each have an expected mapping here, and none is expected of a missing file', () => {
    expect(fixtures.map(byName).sort()).toEqual(Object.keys(EXPECTED).sort());
  });
});

describe('mapping each documented payload', () => {
  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))('%s', (file, fixture) => {
    // Act
    const mapped = map(fixture.provider, fixture.payload);

    // Assess
    const expected = EXPECTED[file]!;
    if ('ignored' in expected) {
      expect(mapped).toEqual({ ignored: expect.stringMatching(expected.ignored) });
      return;
    }
    expect(onlyActivity(mapped)).toEqual(expected);
    // The kind is what the provider's table says of the native type.
    expect(EVENT_TABLES[fixture.provider][fixture.event]).toBe(expected.kind);
  });

  it("reads the other shape of Smartlead's API overview page (api.smartlead.ai/core/webhooks)", () => {
    // Its EMAIL_REPLIED is a fixture (EMAIL_REPLIED.api-overview.json); an open names no lead there.
    const opened = {
      event: 'EMAIL_OPENED',
      timestamp: '2024-01-15T10:30:00Z',
      campaign_id: 123,
      lead_id: 789,
    };
    expect(map('smartlead', opened)).toEqual({ ignored: 'EMAIL_OPENED names no lead' });
  });

  it('aims every fixture at a given campaign and lead with withTarget', () => {
    for (const fixture of fixtures) {
      const target = {
        campaignExternalId:
          fixture.provider === 'smartlead' || fixture.provider === 'heyreach' ? '987654' : 'cmp-77',
        email: 'Seeded.Contact@Example.org',
        linkedinUrl: 'https://www.linkedin.com/in/seeded-contact',
        secretKey: 'token-of-the-webhook-url',
      };
      const mapped = map(fixture.provider, withTarget(fixture.provider, fixture.payload, target));
      if ('ignored' in mapped) {
        expect(EXPECTED[fixture.file], fixture.file).toHaveProperty('ignored');
        continue;
      }
      const activity = onlyActivity(mapped);
      expect(activity.campaignExternalId, fixture.file).toBe(target.campaignExternalId);
      expect(activity.lead.email, fixture.file).toBe('seeded.contact@example.org');
    }
    // The fixture itself is untouched, and a LinkedIn-only target matches by the profile URL.
    const accepted = providerFixture('heyreach/MESSAGE_SENT.json');
    const linkedinOnly = withTarget('heyreach', accepted.payload, {
      campaignExternalId: '5',
      email: null,
      linkedinUrl: 'https://www.linkedin.com/in/seeded-contact',
    });
    expect(onlyActivity(map('heyreach', linkedinOnly)).lead).toEqual({
      email: null,
      linkedinUrl: 'https://www.linkedin.com/in/seeded-contact',
    });
    expect(onlyActivity(map('heyreach', accepted.payload)).campaignExternalId).toBe(HR_CAMPAIGN);
    const smartlead = withTarget('smartlead', providerFixture('smartlead/EMAIL_SENT.json').payload, {
      campaignExternalId: '42',
      secretKey: null,
    });
    expect(smartlead).not.toHaveProperty('secret_key');
    expect(smartlead.campaign_id).toBe(42);
  });
});

// ---------------------------------------------------------------------------------------------
// Event ids
// ---------------------------------------------------------------------------------------------

/** The same object with its keys in reverse order, all the way down. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .reverse()
        .map(([key, inner]) => [key, reordered(inner)]),
    );
  }
  return value;
}

const eventIdOf = (provider: Provider, payload: unknown) => onlyActivity(map(provider, payload)).eventId;

describe('reply threads', () => {
  const replyThreadOf = (provider: Provider, payload: unknown) =>
    onlyActivity(map(provider, payload)).replyThread;
  const withoutField = (file: string, field: string) => {
    const { payload } = providerFixture(file);
    delete payload[field];
    return payload;
  };

  it('carry only what the reply needs, and no thread when a required field is missing', () => {
    // Smartlead: no stats_id, nothing to answer.
    expect(
      replyThreadOf('smartlead', withoutField('smartlead/EMAIL_REPLY.json', 'stats_id')),
    ).toBeUndefined();
    // Smartlead: the replied message's fields are optional to its reply endpoint.
    const bare = providerFixture('smartlead/EMAIL_REPLY.json').payload;
    for (const field of ['reply_message', 'message_id', 'time_replied', 'event_timestamp'])
      delete bare[field];
    expect(replyThreadOf('smartlead', bare)).toEqual({ email_stats_id: SL_STATS });
    // Instantly and HeyReach need both of their fields.
    expect(
      replyThreadOf('instantly', withoutField('instantly/reply_received.json', 'email_account')),
    ).toBeUndefined();
    expect(
      replyThreadOf('instantly', withoutField('instantly/reply_received.json', 'email_id')),
    ).toBeUndefined();
    expect(
      replyThreadOf('heyreach', withoutField('heyreach/MESSAGE_REPLY_RECEIVED.json', 'sender')),
    ).toBeUndefined();
    expect(
      replyThreadOf('heyreach', withoutField('heyreach/MESSAGE_REPLY_RECEIVED.json', 'conversation_id')),
    ).toBeUndefined();
  });

  it('are set on replies only, and never by lemlist, whose API cannot answer in a thread', () => {
    for (const fixture of fixtures) {
      const mapped = map(fixture.provider, fixture.payload);
      if ('ignored' in mapped) continue;
      for (const activity of mapped.activities) {
        if (activity.kind !== 'reply_received' || fixture.provider === 'lemlist') {
          expect(activity.replyThread, fixture.file).toBeUndefined();
        }
        for (const value of Object.values(activity.replyThread ?? {})) expect(typeof value).toBe('string');
      }
    }
  });
});

describe('event ids', () => {
  it('are the same for the same payload delivered again, whatever the order of its keys', () => {
    for (const fixture of fixtures) {
      if ('ignored' in EXPECTED[fixture.file]!) continue;
      const first = eventIdOf(fixture.provider, fixture.payload);
      expect(eventIdOf(fixture.provider, structuredClone(fixture.payload)), fixture.file).toBe(first);
      expect(eventIdOf(fixture.provider, reordered(fixture.payload)), fixture.file).toBe(first);
      expect(first.startsWith(`${fixture.provider}:`), fixture.file).toBe(true);
      expect(first.length, fixture.file).toBeLessThanOrEqual(200);
    }
  });

  it('differ between the fixtures: no two documented events share one', () => {
    const ids = fixtures
      .filter((fixture) => !('ignored' in EXPECTED[fixture.file]!))
      // Two reports of one reply, and one send reported twice, are meant to share theirs.
      .filter((fixture) => fixture.file !== 'heyreach/EVERY_MESSAGE_REPLY_RECEIVED.json')
      .map((fixture) => eventIdOf(fixture.provider, fixture.payload));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('tell two opens or clicks of one email apart by their time, where there is no event id', () => {
    const cases: [string, (payload: Record<string, unknown>) => void][] = [
      [
        'smartlead/EMAIL_OPEN.json',
        (p) =>
          Object.assign(p, { time_opened: '2026-03-05T08:00:00Z', event_timestamp: '2026-03-05T08:00:00Z' }),
      ],
      [
        'smartlead/EMAIL_LINK_CLICK.json',
        (p) => Object.assign(p, { event_timestamp: '2026-03-05T08:00:01Z' }),
      ],
      [
        'smartlead/EMAIL_OPEN.api-reference.json',
        (p) => Object.assign(p, { time_opened: '2025-01-16T10:30:00Z' }),
      ],
      ['instantly/email_opened.json', (p) => Object.assign(p, { timestamp: '2026-03-05T08:00:00.000Z' })],
      [
        'instantly/email_link_clicked.json',
        (p) => Object.assign(p, { timestamp: '2026-03-05T08:00:00.000Z' }),
      ],
      // lemlist: a second open is a second activity.
      [
        'lemlist/emailsOpened.json',
        (p) => Object.assign(p, { _id: 'act_second', createdAt: '2026-03-05T08:00:00Z' }),
      ],
    ];
    for (const [file, change] of cases) {
      const { provider, payload } = providerFixture(file);
      const second = structuredClone(payload);
      change(second);
      const [a, b] = [onlyActivity(map(provider, payload)), onlyActivity(map(provider, second))];
      expect(b.eventId, file).not.toBe(a.eventId);
      // Both still land on their email.
      expect(b.providerMessageId, file).toBe(a.providerMessageId);
    }
  });

  it('leave out what differs between deliveries of one event: a secret, a webhook, a correlation id', () => {
    const open = providerFixture('smartlead/EMAIL_OPEN.api-reference.json').payload;
    const withSecret = {
      ...open,
      secret_key: 'a',
      webhook_id: 1,
      webhook_name: 'x',
      metadata: { webhook_created_at: 'y' },
    };
    const otherSecret = { ...open, secret_key: 'b', webhook_id: 2, webhook_name: 'z' };
    expect(eventIdOf('smartlead', withSecret)).toBe(eventIdOf('smartlead', open));
    expect(eventIdOf('smartlead', otherSecret)).toBe(eventIdOf('smartlead', open));
    // …but not what the event is: another lead's open is another event.
    expect(eventIdOf('smartlead', { ...open, to_email: 'someone@example.com' })).not.toBe(
      eventIdOf('smartlead', open),
    );

    const sent = providerFixture('heyreach/MESSAGE_SENT.json').payload;
    expect(eventIdOf('heyreach', { ...sent, correlation_id: 'another-delivery' })).toBe(
      eventIdOf('heyreach', sent),
    );

    const lemlist = providerFixture('lemlist/emailsSent.json').payload;
    const { _id: _dropped, ...withoutId } = lemlist;
    expect(eventIdOf('lemlist', { ...withoutId, secret: 'one' })).toBe(
      eventIdOf('lemlist', { ...withoutId, secret: 'two' }),
    );
  });

  it('make one event of one send reported by EMAIL_SENT and FIRST_EMAIL_SENT, and of one reply reported twice by HeyReach', () => {
    const first = providerFixture('smartlead/FIRST_EMAIL_SENT.json').payload;
    expect(eventIdOf('smartlead', { ...first, event_type: 'EMAIL_SENT' })).toBe(
      eventIdOf('smartlead', first),
    );
    expect(eventIdOf('heyreach', providerFixture('heyreach/EVERY_MESSAGE_REPLY_RECEIVED.json').payload)).toBe(
      eventIdOf('heyreach', providerFixture('heyreach/MESSAGE_REPLY_RECEIVED.json').payload),
    );
  });

  it('let opens and clicks land on their message: they name the id the send gave it', () => {
    const messageOf = (file: string) => {
      const { provider, payload } = providerFixture(file);
      return onlyActivity(map(provider, payload)).message?.providerMessageId;
    };
    const namedBy = (file: string) => {
      const { provider, payload } = providerFixture(file);
      return onlyActivity(map(provider, payload)).providerMessageId;
    };
    for (const [sent, others] of [
      ['smartlead/EMAIL_SENT.json', ['smartlead/EMAIL_OPEN.json', 'smartlead/EMAIL_LINK_CLICK.json']],
      ['instantly/email_sent.json', ['instantly/email_opened.json', 'instantly/email_link_clicked.json']],
      ['lemlist/emailsSent.json', ['lemlist/emailsOpened.json', 'lemlist/emailsClicked.json']],
    ] as const) {
      expect(messageOf(sent)).not.toBeNull();
      for (const other of others) expect(namedBy(other), other).toBe(messageOf(sent));
    }
  });
});

// ---------------------------------------------------------------------------------------------
// What is ignored
// ---------------------------------------------------------------------------------------------

const PROVIDER_NAMES: Record<Provider, string> = {
  smartlead: 'a Smartlead',
  instantly: 'an Instantly',
  lemlist: 'a lemlist',
  heyreach: 'a HeyReach',
};
const TYPE_FIELD: Record<Provider, string> = {
  smartlead: 'event_type',
  instantly: 'event_type',
  lemlist: 'type',
  heyreach: 'event_type',
};
const ALL_PROVIDERS = PROVIDERS;

describe('what the adapters ignore', () => {
  it.each(ALL_PROVIDERS)('%s: an unknown event type, with the type as the reason', (provider) => {
    const fixture = fixtures.find((candidate) => candidate.provider === provider)!;
    const payload = { ...fixture.payload, [TYPE_FIELD[provider]]: 'SOMETHING_NEW' };
    expect(map(provider, payload)).toEqual({ ignored: 'unsupported event type SOMETHING_NEW' });
  });

  it.each(ALL_PROVIDERS)('%s: anything that is not one of its payloads', (provider) => {
    const reason = { ignored: `not ${PROVIDER_NAMES[provider]} webhook payload` };
    for (const value of [
      null,
      undefined,
      42,
      'EMAIL_SENT',
      [],
      [{ event_type: 'EMAIL_SENT' }],
      {},
      { event_type: '' },
    ]) {
      expect(map(provider, value), JSON.stringify(value)).toEqual(reason);
    }
    expect(map(provider, { [TYPE_FIELD[provider]]: 7 })).toEqual(reason);
  });

  it.each(ALL_PROVIDERS)('%s: each type its table calls ignored, with why', (provider) => {
    const fixture = fixtures.find(
      (candidate) => candidate.provider === provider && candidate.event !== 'campaign_completed',
    )!;
    for (const [type, outcome] of Object.entries(EVENT_TABLES[provider])) {
      if (outcome !== 'ignored') continue;
      const mapped = map(provider, { ...fixture.payload, [TYPE_FIELD[provider]]: type });
      const reason = new RegExp(
        `^(${type} is not recorded|connection accepted is not recorded \\(${type}\\)): .+`,
      );
      expect(mapped, type).toEqual({ ignored: expect.stringMatching(reason) });
    }
  });

  it('a campaign-level completion, which names no lead', () => {
    const lemlist = providerFixture('lemlist/emailsSent.json').payload;
    const { leadEmail: _e, linkedinUrl: _l, ...noLead } = lemlist;
    expect(map('lemlist', { ...noLead, type: 'campaignComplete' })).toEqual({
      ignored: "campaignComplete names no lead: the campaign's own end is not recorded",
    });
    expect(onlyActivity(map('lemlist', { ...lemlist, type: 'campaignComplete' })).kind).toBe('completed');
    expect(
      map('heyreach', {
        event_type: 'campaign_completed',
        campaign: { id: 1 },
        timestamp: '2026-03-20T17:00:03Z',
      }),
    ).toEqual({
      ignored: "CAMPAIGN_COMPLETED names no lead: the campaign's own end is not recorded",
    });
  });

  it('a Smartlead category update without a category', () => {
    const { payload } = providerFixture('smartlead/LEAD_CATEGORY_UPDATED.api-reference.json');
    const { category: _c, lead_data: _d, ...rest } = payload;
    expect(map('smartlead', rest)).toEqual({ ignored: 'LEAD_CATEGORY_UPDATED names no category' });
  });
});

// ---------------------------------------------------------------------------------------------
// Classification, limits, normalization
// ---------------------------------------------------------------------------------------------

describe('classifications', () => {
  it("map Smartlead's categories through its documented table, anything else neutral", () => {
    expect(SMARTLEAD_CATEGORY_RESPONSE_TYPES).toMatchObject({
      Interested: 'positive',
      'Meeting Request': 'positive',
      'Information Request': 'positive',
      'Not Interested': 'not_interested',
      'Out Of Office': 'out_of_office',
      'Wrong Person': 'wrong_person',
      'Do Not Contact': 'unsubscribe_request',
    });
    const { payload } = providerFixture('smartlead/LEAD_CATEGORY_UPDATED.json');
    for (const [category, responseType] of [
      ...Object.entries(SMARTLEAD_CATEGORY_RESPONSE_TYPES),
      ['out of office', 'out_of_office'],
      ['  do  not contact ', 'unsubscribe_request'],
      ['Hot lead (custom)', 'neutral'],
    ]) {
      expect(smartleadResponseType(category!)).toBe(responseType);
      const updated = { ...payload, lead_category: { new_id: 99, new_name: category } };
      expect(onlyActivity(map('smartlead', updated)).responseType, category).toBe(responseType);
    }
  });

  it('give a reply no response type of its own: the classification comes apart', () => {
    for (const fixture of fixtures) {
      const expected = EXPECTED[fixture.file]!;
      if ('ignored' in expected || expected.kind !== 'reply_received') continue;
      expect(onlyActivity(map(fixture.provider, fixture.payload)).responseType, fixture.file).toBeUndefined();
    }
  });
});

describe('limits and normalization', () => {
  it("cut subjects and bodies to the service's limits", () => {
    const { payload } = providerFixture('smartlead/EMAIL_SENT.json');
    const long = { ...payload, subject: 's'.repeat(1500), sent_message: { text: 'b'.repeat(150_000) } };
    const { message } = onlyActivity(map('smartlead', long));
    expect(message?.subject).toHaveLength(MAX_SUBJECT_LENGTH);
    expect(message?.body).toHaveLength(MAX_BODY_LENGTH);
    // A surrogate pair at the limit is not split.
    expect(truncate(`${'a'.repeat(9)}😀`, 10)).toBe('a'.repeat(9));
  });

  it('lower-case and trim lead emails; keep LinkedIn URLs as sent', () => {
    const { payload } = providerFixture('lemlist/emailsSent.json');
    const activity = onlyActivity(
      map('lemlist', {
        ...payload,
        leadEmail: '  Jane.Doe@Example.COM ',
        linkedinUrl: 'https://LinkedIn.com/in/Jane-Doe/',
      }),
    );
    expect(activity.lead).toEqual({
      email: 'jane.doe@example.com',
      linkedinUrl: 'https://LinkedIn.com/in/Jane-Doe/',
    });
    expect(normalizeEmail('not an email')).toBeNull();
  });

  it('prefer plain text to HTML, and fall back to HTML', () => {
    const { payload } = providerFixture('instantly/email_sent.json');
    const { email_text: _t, ...htmlOnly } = payload;
    expect(onlyActivity(map('instantly', htmlOnly)).message?.body).toBe(payload.email_html);
    expect(onlyActivity(map('instantly', payload)).message?.body).toBe(payload.email_text);
  });

  it('read times as ISO 8601 in UTC, whatever their form, and nothing else', () => {
    expect(isoTime('2023-09-25T17:29:11.618881+00:00')).toBe('2023-09-25T17:29:11.618Z');
    expect(isoTime('2026-03-02 09:15:04')).toBe('2026-03-02T09:15:04.000Z');
    expect(isoTime('2026-03-02T11:15:04+0200')).toBe('2026-03-02T09:15:04.000Z');
    expect(isoTime('2026-03-02')).toBe('2026-03-02T00:00:00.000Z');
    expect(isoTime(1_772_442_904)).toBe('2026-03-02T09:15:04.000Z');
    expect(isoTime(1_772_442_904_118)).toBe('2026-03-02T09:15:04.118Z');
    for (const bad of [
      '2',
      'yesterday',
      '2026-02-30T00:00:00Z',
      '2026-13-01',
      '',
      -5,
      Number.NaN,
      1e20,
      null,
      {},
    ]) {
      expect(isoTime(bad), String(bad)).toBeNull();
    }
  });

  it('hash a canonical form: keys sorted at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[2,{"e":null,"f":1}]},"b":1}',
    );
    // An own "__proto__" key (JSON.parse makes one) is hashed like any other.
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('convert providers’ step numbers: 1-based to 0-based, A/B letters to indexes', () => {
    const { payload } = providerFixture('instantly/email_sent.json');
    const at = (step: unknown, variant: unknown) =>
      onlyActivity(map('instantly', { ...payload, step, variant })).message;
    expect(at(1, 1)).toMatchObject({ stepIndex: 0, variantIndex: 0 });
    expect(at('3', 3)).toMatchObject({ stepIndex: 2, variantIndex: 2 });
    expect(at(0, -1)).toMatchObject({ stepIndex: null, variantIndex: null });
    expect(at(1.5, 'x')).toMatchObject({ stepIndex: null, variantIndex: null });
    const lemlist = providerFixture('lemlist/emailsSent.json').payload;
    expect(
      onlyActivity(map('lemlist', { ...lemlist, stepTested: 'c', sequenceStep: 0 })).message,
    ).toMatchObject({
      stepIndex: 0,
      variantIndex: 2,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Untrusted input: never a throw, never an event the service would refuse
// ---------------------------------------------------------------------------------------------

const isoDateTime = z.iso.datetime({ offset: true });

/** Whether the activity would pass the service's provider event schema, as matching builds it. */
function assertRecordable(provider: Provider, mapped: MappedPayload) {
  if ('ignored' in mapped) {
    expect(typeof mapped.ignored).toBe('string');
    expect(mapped.ignored.length).toBeGreaterThan(0);
    return;
  }
  expect(mapped.activities.length).toBeGreaterThan(0);
  for (const activity of mapped.activities) {
    expect(PROVIDER_ACTIVITY_KINDS).toContain(activity.kind);
    expect(activity.eventId.startsWith(`${provider}:`)).toBe(true);
    expect(activity.campaignExternalId === null || typeof activity.campaignExternalId === 'string').toBe(
      true,
    );
    expect(activity.lead.email ?? activity.lead.linkedinUrl).not.toBeNull();
    if (activity.lead.email !== null)
      expect(activity.lead.email).toBe(activity.lead.email.trim().toLowerCase());
    if (activity.at !== null) expect(isoDateTime.safeParse(activity.at).success).toBe(true);
    const at = activity.at ?? '2026-01-01T00:00:00.000Z';
    const message = activity.message && {
      step_type: activity.message.stepType,
      step_index: activity.message.stepIndex,
      variant_index: activity.message.variantIndex,
      subject: activity.message.subject,
      body: activity.message.body,
      sender_email: activity.message.senderEmail,
      created_at: at,
    };
    const candidate = {
      id: activity.eventId,
      assignment_id: 1,
      at,
      type: activity.kind,
      ...(message && { message }),
      ...(activity.responseType !== undefined && { response_type: activity.responseType }),
      ...(activity.kind === 'reply_classified' && { response_type: activity.responseType ?? 'neutral' }),
    };
    const parsed = providerEvent.safeParse(candidate);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  }
}

/** Every path to a value in a JSON object (`a`, `a.b`, `a.0`), for removing or replacing fields. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => [
    [...prefix, key],
    ...paths(inner, [...prefix, key]),
  ]);
}

function edit(payload: Record<string, unknown>, path: string[], replacement?: { value: unknown }) {
  let parent: unknown = payload;
  for (const key of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return;
    parent = (parent as Record<string, unknown>)[key];
  }
  if (parent === null || typeof parent !== 'object') return;
  const last = path[path.length - 1]!;
  if (replacement) (parent as Record<string, unknown>)[last] = replacement.value;
  else delete (parent as Record<string, unknown>)[last];
}

describe('untrusted input', () => {
  it.each(ALL_PROVIDERS)('%s: any JSON value maps without throwing, to something recordable', (provider) => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assertRecordable(provider, map(provider, value));
      }),
      { numRuns: 300 },
    );
  });

  it.each(ALL_PROVIDERS)('%s: any object with a known event type maps without throwing', (provider) => {
    const types = Object.keys(EVENT_TABLES[provider]);
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.constantFrom(...fixtures.filter((f) => f.provider === provider)),
        (type, extra, fixture) => {
          const payload = { ...fixture.payload, ...extra, [TYPE_FIELD[provider]]: type };
          assertRecordable(provider, map(provider, payload));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))(
    '%s with fields removed or replaced maps without throwing, to something recordable',
    (_file, fixture) => {
      const all = paths(fixture.payload);
      fc.assert(
        fc.property(
          fc.subarray(all),
          fc.array(fc.tuple(fc.constantFrom(...all), fc.jsonValue()), { maxLength: 5 }),
          (removed, replaced) => {
            const payload = structuredClone(fixture.payload);
            for (const [path, value] of replaced) edit(payload, path, { value });
            for (const path of removed) edit(payload, path);
            const mapped = map(fixture.provider, payload);
            assertRecordable(fixture.provider, mapped);
            // The same broken payload twice is still one event.
            const again = map(fixture.provider, structuredClone(payload));
            expect(again).toEqual(mapped);
          },
        ),
        { numRuns: 60 },
      );
    },
  );

  /** A JSON value `levels` deep, built without recursion: arrays, objects or both in turn. */
  const nested = (levels: number, kind: 'arrays' | 'objects' | 'both', leaf: unknown): unknown => {
    let value = leaf;
    for (let level = 0; level < levels; level++) {
      value = kind === 'arrays' || (kind === 'both' && level % 2 === 0) ? [value] : { a: value };
    }
    return value;
  };
  /** Far deeper than any call stack, and strings as long as a whole payload may be: each made anew per call. */
  const deepValue = fc
    .tuple(
      fc.integer({ min: 20_000, max: 100_000 }),
      fc.constantFrom('arrays', 'objects', 'both'),
      fc.jsonValue({ maxDepth: 1 }),
    )
    .map(
      ([levels, kind, leaf]) =>
        () =>
          nested(levels, kind as 'arrays' | 'objects' | 'both', leaf),
    );
  const hugeString = fc
    .tuple(
      fc.integer({ min: 50_000, max: 256_000 }),
      fc.constantFrom('x', ' ', '\u007f', '\uffff', '\u0000', '😀', 'é'),
    )
    .map(
      ([length, unit]) =>
        () =>
          unit.repeat(Math.ceil(length / unit.length)),
    );

  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))(
    '%s with a field nested 100,000 levels deep or a huge string maps without throwing, alike each time',
    (_file, fixture) => {
      const all = paths(fixture.payload);
      fc.assert(
        fc.property(
          fc.array(
            fc.tuple(fc.option(fc.constantFrom(...all), { nil: undefined }), fc.oneof(deepValue, hugeString)),
            { minLength: 1, maxLength: 2 },
          ),
          (replaced) => {
            // A path replaces a field; none adds one beside the documented fields.
            const payload = () => {
              const built = structuredClone(fixture.payload);
              for (const [path, value] of replaced) {
                if (path) edit(built, path, { value: value() });
                else built.extra = value();
              }
              return built;
            };
            const mapped = map(fixture.provider, payload());
            assertRecordable(fixture.provider, mapped);
            // The same payload delivered again is still one event.
            expect(map(fixture.provider, payload())).toEqual(mapped);
          },
        ),
        { numRuns: 8 },
      );
    },
  );

  it('ends any exception of an adapter as a payload it does not record, with the reason', () => {
    const throwing = neverThrowing(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(throwing({})).toEqual({
      ignored: 'the payload could not be mapped: RangeError: Maximum call stack size exceeded',
    });
    expect(neverThrowing(() => ({ ignored: 'fine' }))({})).toEqual({ ignored: 'fine' });
  });
});
