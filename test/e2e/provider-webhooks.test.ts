import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { ProviderActivity } from '#providers/activity.ts';
import { payloadMappers } from '#providers/webhooks.ts';
import type { Provider } from '#schemas/import.ts';
import { webhookPayload } from '#schemas/webhooks.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import {
  type ProviderFixture,
  providerFixture,
  providerFixtures,
  withTarget,
} from '../fixtures/providers/index.ts';
import { apiClient, send } from '../support/api-client.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';
import { maintainedAndRecomputed } from '../support/recompute.ts';
import { settle } from '../support/settle.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/** Every provider's adapter, as the consumer loads them. */
const PROVIDER_PAYLOAD_MAPPERS = await payloadMappers();

/**
 * Every documented payload of every provider (test/fixtures/providers/)
 * through the real inbound endpoint of the local stack, the queue and its
 * consumer, into the reads (contact status, message history, campaign
 * stats, the analytics overview) and into First Touch and Positive Reply
 * deliveries at a receiver that verifies their signatures. Each payload is
 * about a lead of its own, so the lifecycle of one never stands in the way of
 * another; a payload that needs an earlier step (an open needs a send, a
 * classification a reply) is preceded by that provider's documented payload
 * of the step, about the same lead.
 */

const CAMPAIGN_ID = 700;
const SEQUENCES: Record<Provider, { id: number; externalId: string; channel: 'email' | 'linkedin' }> = {
  smartlead: { id: 711, externalId: '880001', channel: 'email' },
  instantly: { id: 712, externalId: '3f1c9a2e-7b40-4d8a-9e61-2c5b8d0f4a17', channel: 'email' },
  lemlist: { id: 713, externalId: 'cam_Test7q2Lk9PmWs', channel: 'email' },
  heyreach: { id: 714, externalId: '990001', channel: 'linkedin' },
};
const PROVIDERS = Object.keys(SEQUENCES) as Provider[];

/** The documented payload of each provider's first send and of a reply, the steps others need before them. */
const SEND: Record<Provider, string> = {
  smartlead: 'smartlead/EMAIL_SENT.json',
  instantly: 'instantly/email_sent.json',
  lemlist: 'lemlist/emailsSent.json',
  heyreach: 'heyreach/MESSAGE_SENT.json',
};
const REPLY: Record<Provider, string> = {
  smartlead: 'smartlead/EMAIL_REPLY.json',
  instantly: 'instantly/reply_received.json',
  lemlist: 'lemlist/emailsReplied.json',
  heyreach: 'heyreach/MESSAGE_REPLY_RECEIVED.json',
};

/** The status a lead ends in after a payload of each kind (and the step before it). */
const FINAL_STATUS: Record<ProviderActivity['kind'], string> = {
  message_sent: 'in-progress',
  opened: 'in-progress',
  clicked: 'in-progress',
  reply_received: 'replied',
  reply_classified: 'replied',
  bounced: 'bounced',
  unsubscribed: 'unsubscribed',
  completed: 'completed',
};

interface Lead {
  index: number;
  provider: Provider;
  email: string;
  /** As the contact was imported; payloads spell it otherwise. */
  linkedinUrl: string;
}

/** One lead per fixture, plus four for the reply/classification orders. */
const fixtures = providerFixtures();
const leadOf = (index: number, provider: Provider): Lead => ({
  index,
  provider,
  email: `lead${index}@leads.example`,
  linkedinUrl: `https://linkedin.com/in/lead-${index}`,
});
const leads = fixtures.map((fixture, index) => leadOf(index + 1, fixture.provider));
const ORDER_LEADS = {
  smartleadReplyFirst: leadOf(901, 'smartlead'),
  smartleadClassificationFirst: leadOf(902, 'smartlead'),
  instantlyReplyFirst: leadOf(903, 'instantly'),
  instantlyClassificationFirst: leadOf(904, 'instantly'),
};
const allLeads = [...leads, ...Object.values(ORDER_LEADS)];

const ID_KEY = /(^id$|_id$|Id$|^uuid$|^messageId$)/;
const CAMPAIGN_KEY = /^campaign(_id|Id)$/;

/**
 * The payload with every string id made the lead's own: the documented
 * examples share their ids, and a provider's ids are unique per real event.
 * The same lead's payloads keep matching each other (an open its send).
 */
function distinct(value: unknown, index: number, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => distinct(item, index));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, child]) => [name, distinct(child, index, name)]),
    );
  }
  return typeof value === 'string' && ID_KEY.test(key) && !CAMPAIGN_KEY.test(key)
    ? `${value}-${index}`
    : value;
}

/** A fixture's payload about `lead`, matched by email, or for HeyReach by the LinkedIn profile URL only. */
function payloadFor(fixture: ProviderFixture, lead: Lead): Record<string, unknown> {
  const linkedinOnly = fixture.provider === 'heyreach';
  return withTarget(fixture.provider, distinct(fixture.payload, lead.index) as Record<string, unknown>, {
    campaignExternalId: SEQUENCES[fixture.provider].externalId,
    email: linkedinOnly ? null : lead.email,
    // Spelled as a provider does: www., upper case, a trailing slash.
    linkedinUrl: `https://www.linkedin.com/in/Lead-${lead.index}/`,
    secretKey: null,
  });
}

const activitiesOf = (fixture: ProviderFixture, lead: Lead) =>
  PROVIDER_PAYLOAD_MAPPERS[fixture.provider](payloadFor(fixture, lead));

function importDocument() {
  return {
    campaigns: [
      {
        id: CAMPAIGN_ID,
        name: 'Every provider',
        sequences: PROVIDERS.map((provider) => ({
          id: SEQUENCES[provider].id,
          provider,
          channel: SEQUENCES[provider].channel,
          external_id: SEQUENCES[provider].externalId,
          steps: [
            {
              type: SEQUENCES[provider].channel === 'email' ? 'email' : 'linkedin_message',
              variants: [{ subject: 'Hi', body: 'Hello' }],
            },
          ],
        })),
      },
    ],
    contacts: allLeads.map((lead) => ({
      id: 10_000 + lead.index,
      email: lead.provider === 'heyreach' ? null : lead.email,
      linkedin_url: lead.linkedinUrl,
      first_name: `Lead ${lead.index}`,
    })),
    assignments: allLeads.map((lead) => ({
      id: 20_000 + lead.index,
      campaign_id: CAMPAIGN_ID,
      sequence_id: SEQUENCES[lead.provider].id,
      contact_id: 10_000 + lead.index,
      status: 'scheduled',
      approved_at: '2026-01-01T00:00:00.000Z',
    })),
  };
}

let stack: LocalStack;
let receiver: WebhookReceiver;
let orgId: number;
let apiKey: string;
let secret: string;
const webhookUrls = {} as Record<Provider, string>;
const connectionIds = {} as Record<Provider, number>;

const api = () => apiClient(stack, apiKey);

async function deliver(provider: Provider, payload: unknown) {
  const answer = await send('', {
    method: 'POST',
    url: webhookUrls[provider],
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  expect(answer.status, answer.text).toBe(200);
}

/** The steps a fixture's payload needs before it, about the same lead. */
function stepsBefore(fixture: ProviderFixture, lead: Lead): string[] {
  const mapped = activitiesOf(fixture, lead);
  if ('ignored' in mapped) return [];
  const kind = mapped.activities[0]!.kind;
  if (kind === 'opened' || kind === 'clicked' || kind === 'completed') return [SEND[fixture.provider]];
  if (kind === 'reply_classified') return [REPLY[fixture.provider]];
  return [];
}

/** The organization's verified First Touch and Positive Reply payloads, by assignment. */
function received(type: 'first_touch' | 'positive_reply') {
  return receiver
    .on('/ok/provider-events')
    .map((request) =>
      webhookPayload.parse(
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>),
      ),
    )
    .filter((payload) => payload.type === type)
    .map((payload) => (payload as { data: { assignment_id: number } }).data.assignment_id);
}

async function contactsByAssignment() {
  const page = await api().get(`/campaigns/${CAMPAIGN_ID}/contacts?take=100`);
  expect(page.status).toBe(200);
  const all = [...page.body.data];
  let next = page.body.next;
  while (next) {
    const more = await api().get(`/campaigns/${CAMPAIGN_ID}/contacts?take=100&cursor=${next}`);
    all.push(...more.body.data);
    next = more.body.next;
  }
  return new Map(
    all.map((contact: { assignment_id: number; status: string }) => [contact.assignment_id, contact]),
  );
}

async function messagesOfCampaign() {
  const all: {
    assignment_id: number;
    type: string;
    response_type: string | null;
    step_type: string;
    step_index: number | null;
  }[] = [];
  let cursor: unknown = null;
  do {
    const page = await api().get(
      `/campaigns/${CAMPAIGN_ID}/messages?take=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(page.status).toBe(200);
    all.push(...page.body.data);
    cursor = page.body.next;
  } while (cursor);
  return all;
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  ({ orgId } = await createOrganization('Every Provider Agency'));
  ({ apiKey } = await createApiKey(orgId));
  await importFor(orgId, importDocument());
  const hook = await api().post('/webhooks', {
    url: `${receiver.url}/ok/provider-events`,
    events: ['first_touch', 'positive_reply'],
  });
  secret = hook.body.secret;
  for (const provider of PROVIDERS) {
    const connection = await api().post(
      '/provider-connections',
      await emulatedConnection(stack, provider, `${provider}-key`),
    );
    webhookUrls[provider] = connection.body.webhook_url;
    connectionIds[provider] = connection.body.id;
  }
  // Every documented payload, each after the steps it needs, about a lead of its own.
  for (const [index, fixture] of fixtures.entries()) {
    const lead = leads[index]!;
    for (const step of stepsBefore(fixture, lead))
      await deliver(fixture.provider, payloadFor(providerFixture(step), lead));
    await deliver(fixture.provider, payloadFor(fixture, lead));
  }
  await settle(stack, receiver);
});
afterAll(async () => {
  await stack.stop();
  await receiver.stop();
});

describe('every documented provider payload', () => {
  it('is recorded: each lead’s contact ends in the status its events lead to', async () => {
    const contacts = await contactsByAssignment();
    const wrong: string[] = [];
    for (const [index, fixture] of fixtures.entries()) {
      const lead = leads[index]!;
      const mapped = activitiesOf(fixture, lead);
      const expected = 'ignored' in mapped ? 'scheduled' : FINAL_STATUS[mapped.activities.at(-1)!.kind];
      const actual = contacts.get(20_000 + lead.index)?.status;
      if (actual !== expected) wrong.push(`${fixture.file}: ${actual}, expected ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lands in the message history with its step, channel and classification', async () => {
    const messages = await messagesOfCampaign();
    const wrong: string[] = [];
    for (const [index, fixture] of fixtures.entries()) {
      const lead = leads[index]!;
      const mapped = activitiesOf(fixture, lead);
      if ('ignored' in mapped) continue;
      const activity = mapped.activities.at(-1)!;
      const own = messages.filter((message) => message.assignment_id === 20_000 + lead.index);
      if (activity.kind === 'message_sent') {
        const sent = own.filter((message) => message.type === 'sent');
        const expected = { step_type: activity.message!.stepType, step_index: activity.message!.stepIndex };
        if (
          sent.length !== 1 ||
          sent[0]!.step_type !== expected.step_type ||
          sent[0]!.step_index !== expected.step_index
        )
          wrong.push(
            `${fixture.file}: ${JSON.stringify(sent)}, expected one sent ${JSON.stringify(expected)}`,
          );
      }
      if (activity.kind === 'reply_received') {
        const replies = own.filter((message) => message.type === 'received');
        if (replies.length !== 1 || replies[0]!.response_type !== 'neutral')
          wrong.push(`${fixture.file}: ${JSON.stringify(replies)}, expected one neutral reply`);
      }
      if (activity.kind === 'reply_classified') {
        const replies = own.filter((message) => message.type === 'received');
        if (replies.length !== 1 || replies[0]!.response_type !== activity.responseType)
          wrong.push(
            `${fixture.file}: ${JSON.stringify(replies)}, expected one ${activity.responseType} reply`,
          );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('moves the campaign stats and the analytics overview as a recomputation does', async () => {
    const kindsOf = (index: number) => {
      const fixture = fixtures[index]!;
      const lead = leads[index]!;
      return [...stepsBefore(fixture, lead).map(providerFixture), fixture].flatMap((step) => {
        const mapped = activitiesOf(step, lead);
        return 'ignored' in mapped ? [] : mapped.activities.map((activity) => activity.kind);
      });
    };
    const count = (kind: ProviderActivity['kind']) =>
      fixtures.filter((_, index) => kindsOf(index).includes(kind)).length;
    // Every kind is among the documented payloads, so none of the figures below is vacuous.
    for (const kind of [
      'message_sent',
      'opened',
      'clicked',
      'bounced',
      'unsubscribed',
      'completed',
    ] as const) {
      expect(count(kind), kind).toBeGreaterThan(0);
    }
    const campaign = await api().get(`/campaigns/${CAMPAIGN_ID}`);
    expect(campaign.body.stats).toMatchObject({
      sent: count('message_sent'),
      opened: count('opened'),
      clicked: count('clicked'),
      bounced: count('bounced'),
      unsubscribed: count('unsubscribed'),
    });
    const overview = await api().get('/analytics/overview');
    expect(overview.body).toMatchObject({
      total_contacts_sent: count('message_sent'),
      total_contacts_opened: count('opened'),
      total_bounced: count('bounced'),
      total_unsubscribed: count('unsubscribed'),
    });
    const { stored, recomputed } = await maintainedAndRecomputed(orgId);
    expect(stored).toEqual(recomputed);
  });

  it('sends First Touch once per lead’s first send and Positive Reply once per positive classification', async () => {
    const expectedFirstTouch = fixtures
      .map((fixture, index) => ({ fixture, lead: leads[index]! }))
      .filter(({ fixture, lead }) =>
        [...stepsBefore(fixture, lead).map(providerFixture), fixture].some((step) => {
          const mapped = activitiesOf(step, lead);
          return (
            !('ignored' in mapped) && mapped.activities.some((activity) => activity.kind === 'message_sent')
          );
        }),
      )
      .map(({ lead }) => 20_000 + lead.index);
    // The events leave through the outbox and the table's stream, which settle's barrier may overtake.
    await waitFor(() => received('first_touch').length >= expectedFirstTouch.length, { what: 'First Touch' });
    await settle(stack, receiver);
    expect(received('first_touch').sort()).toEqual(expectedFirstTouch.sort());
    const expectedPositive = fixtures
      .map((fixture, index) => ({ mapped: activitiesOf(fixture, leads[index]!), lead: leads[index]! }))
      .filter(
        ({ mapped }) =>
          !('ignored' in mapped) &&
          mapped.activities.some((activity) => activity.responseType === 'positive'),
      )
      .map(({ lead }) => 20_000 + lead.index);
    expect(expectedPositive.length).toBeGreaterThan(0);
    await waitFor(() => received('positive_reply').length >= expectedPositive.length, {
      what: 'Positive Reply',
    });
    expect(received('positive_reply').sort()).toEqual(expectedPositive.sort());
  });

  it('keeps the payloads it does not record as unmatched, with why, and nothing else', async () => {
    for (const provider of PROVIDERS) {
      const page = await api().get(`/provider-connections/${connectionIds[provider]}/unmatched?take=100`);
      const expected = fixtures
        .map((fixture, index) => ({ fixture, mapped: activitiesOf(fixture, leads[index]!) }))
        .filter(({ fixture, mapped }) => fixture.provider === provider && 'ignored' in mapped)
        .map(({ mapped }) => ('ignored' in mapped ? mapped.ignored : ''));
      expect(page.body.data.map((event: { reason: string }) => event.reason).sort(), provider).toEqual(
        expected.sort(),
      );
    }
  });

  it('changes nothing when the same payloads come again (providers retry)', async () => {
    const before = await maintainedAndRecomputed(orgId);
    const deliveriesBefore = receiver.on('/ok/provider-events').length;
    for (const [index, fixture] of fixtures.entries()) {
      const lead = leads[index]!;
      if ('ignored' in activitiesOf(fixture, lead)) continue;
      await deliver(fixture.provider, payloadFor(fixture, lead));
    }
    await settle(stack, receiver);
    const after = await maintainedAndRecomputed(orgId);
    expect(after.stored).toEqual(before.stored);
    expect(receiver.on('/ok/provider-events')).toHaveLength(deliveriesBefore);
  });
});

describe('a reply and its classification, in either order', () => {
  const cases = [
    {
      name: 'Smartlead, reply first',
      lead: ORDER_LEADS.smartleadReplyFirst,
      order: ['reply', 'classification'],
    },
    {
      name: 'Smartlead, classification first',
      lead: ORDER_LEADS.smartleadClassificationFirst,
      order: ['classification', 'reply'],
    },
    {
      name: 'Instantly, reply first',
      lead: ORDER_LEADS.instantlyReplyFirst,
      order: ['reply', 'classification'],
    },
    {
      name: 'Instantly, classification first',
      lead: ORDER_LEADS.instantlyClassificationFirst,
      order: ['classification', 'reply'],
    },
  ] as const;
  const CLASSIFICATION: Partial<Record<Provider, string>> = {
    smartlead: 'smartlead/LEAD_CATEGORY_UPDATED.json',
    instantly: 'instantly/lead_interested.json',
  };

  it.each(cases)('$name gives one positive reply and one Positive Reply', async ({ lead, order }) => {
    for (const step of order) {
      const file = step === 'reply' ? REPLY[lead.provider] : CLASSIFICATION[lead.provider]!;
      await deliver(lead.provider, payloadFor(providerFixture(file), lead));
      // Each lands before the next is sent: the order is the test's point.
      await settle(stack, receiver);
    }
    const replies = (await messagesOfCampaign()).filter(
      (message) => message.assignment_id === 20_000 + lead.index && message.type === 'received',
    );
    expect(replies.map((message) => message.response_type)).toEqual(['positive']);
    const positiveReplies = () =>
      received('positive_reply').filter((assignment) => assignment === 20_000 + lead.index);
    // The event leaves through the outbox and the table's stream, which settle's barrier may overtake.
    await waitFor(() => positiveReplies().length > 0, { what: 'the Positive Reply' });
    await settle(stack, receiver);
    expect(positiveReplies()).toHaveLength(1);
    const { stored, recomputed } = await maintainedAndRecomputed(orgId);
    expect(stored).toEqual(recomputed);
  });
});
