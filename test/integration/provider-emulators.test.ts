import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderActivity } from '#providers/activity.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { payloadMappers } from '#providers/webhooks.ts';
import type { Provider } from '#schemas/import.ts';
import {
  type ProviderEmulators,
  startProviderEmulators,
} from '../../infra/local/provider-emulators/index.ts';
import { waitFor } from '../support/wait.ts';

/** Every provider's adapter, as the consumer loads them. */
const PROVIDER_PAYLOAD_MAPPERS = await payloadMappers();

/*
 * The provider emulators (infra/local/provider-emulators/) as a client meets
 * them: over HTTP, with each provider's own authentication, batch limit, rate
 * limit, error statuses and native webhook payloads; every payload the
 * emulators post is mapped by the service's own adapters
 * (PROVIDER_PAYLOAD_MAPPERS) to check it is one the service records.
 */

type Json = Record<string, unknown>;

interface Received {
  path: string;
  body: Json;
}

/** A webhook subscriber on loopback that keeps every payload posted to it, by path. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '/',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json,
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    on: (path: string) => received.filter((item) => item.path === path),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface CallOptions {
  query?: Record<string, string>;
  body?: unknown;
}

/** What the tests need of each provider: its auth, a sample lead and its add, read and reply requests. */
interface ProviderUnderTest {
  provider: Provider;
  authenticate(apiKey: string, headers: Record<string, string>, query: URLSearchParams): void;
  /** The lead object as the add request carries it (what the emulator must keep as received). */
  sampleLead(n: number): Json;
  /** The lead's identity in mapped activities. */
  identity(lead: Json): { email?: string; linkedinUrl?: string };
  /** Adds leads (lemlist: the first one only, its API adds one per request). */
  add(call: Caller, campaignId: string, leads: Json[]): Promise<Response>;
  /** An add request with one lead more than the documented batch size. */
  addTooMany(call: Caller, campaignId: string): Promise<Response>;
  /** A cheap read that needs a known campaign. */
  readCampaign(call: Caller, campaignId: string): Promise<Response>;
  /** Registers a webhook through the provider's own endpoint. */
  registerWebhook(call: Caller, campaignId: string, url: string): Promise<Response>;
  /** Replies in the thread a reply webhook names; null where the API has no reply in thread. */
  reply: ((call: Caller, campaignId: string, replyPayload: Json) => Promise<Response>) | null;
  /** Events with a native webhook, as the emulator plays them. */
  events: readonly string[];
}

type Caller = (method: string, path: string, options?: CallOptions) => Promise<Response>;

const profile = (n: number) => `https://www.linkedin.com/in/jane-doe-${n}`;
const emailOf = (n: number) => `jane.doe.${n}@example.com`;

const PROVIDERS: ProviderUnderTest[] = [
  {
    provider: 'smartlead',
    authenticate: (apiKey, _headers, query) => query.set('api_key', apiKey),
    sampleLead: (n) => ({
      email: emailOf(n),
      first_name: 'Jane',
      last_name: 'Doe',
      company_name: 'Acme',
      website: 'acme.example',
      linkedin_profile: profile(n),
      custom_fields: { first_line: 'Saw Acme is hiring two controllers', score: '42' },
    }),
    identity: (lead) => ({ email: lead.email as string }),
    add: (call, campaignId, leads) =>
      call('POST', `/campaigns/${campaignId}/leads`, {
        body: {
          lead_list: leads,
          settings: {
            ignore_global_block_list: false,
            ignore_unsubscribe_list: false,
            ignore_duplicate_leads_in_other_campaign: false,
          },
        },
      }),
    addTooMany: (call, campaignId) =>
      call('POST', `/campaigns/${campaignId}/leads`, {
        body: {
          lead_list: Array.from({ length: PROVIDER_FACTS.smartlead.maxLeadsPerRequest + 1 }, (_, n) => ({
            email: emailOf(n),
          })),
        },
      }),
    readCampaign: (call, campaignId) => call('GET', `/campaigns/${campaignId}`),
    registerWebhook: (call, campaignId, url) =>
      call('POST', `/campaigns/${campaignId}/webhooks`, {
        body: {
          id: null,
          name: 'Outreach service',
          webhook_url: url,
          event_types: ['EMAIL_SENT'],
          categories: [],
        },
      }),
    reply: (call, campaignId, payload) => {
      const replyMessage = payload.reply_message as Json;
      return call('POST', `/campaigns/${campaignId}/reply-email-thread`, {
        body: {
          email_stats_id: payload.stats_id,
          email_body: '<p>Tuesday works.</p>',
          reply_message_id: replyMessage.message_id,
          reply_email_time: replyMessage.time,
        },
      });
    },
    events: ['sent', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed'],
  },
  {
    provider: 'instantly',
    authenticate: (apiKey, headers) => {
      headers.authorization = `Bearer ${apiKey}`;
    },
    sampleLead: (n) => ({
      email: emailOf(n),
      first_name: 'Jane',
      last_name: 'Doe',
      company_name: 'Acme',
      website: 'acme.example',
      custom_variables: { first_line: 'Saw Acme is hiring two controllers', linkedin_url: profile(n) },
    }),
    identity: (lead) => ({ email: lead.email as string }),
    add: (call, campaignId, leads) =>
      call('POST', '/leads/add', {
        body: { campaign_id: campaignId, skip_if_in_workspace: true, skip_if_in_campaign: true, leads },
      }),
    addTooMany: (call, campaignId) =>
      call('POST', '/leads/add', {
        body: {
          campaign_id: campaignId,
          leads: Array.from({ length: PROVIDER_FACTS.instantly.maxLeadsPerRequest + 1 }, (_, n) => ({
            email: emailOf(n),
          })),
        },
      }),
    readCampaign: (call, campaignId) => call('GET', `/campaigns/${campaignId}`),
    registerWebhook: (call, campaignId, url) =>
      call('POST', '/webhooks', {
        body: { target_hook_url: url, event_type: 'all_events', campaign: campaignId },
      }),
    reply: (call, _campaignId, payload) =>
      call('POST', '/emails/reply', {
        body: {
          reply_to_uuid: payload.email_id,
          eaccount: payload.email_account,
          subject: `Re: ${String(payload.reply_subject)}`,
          body: { text: 'Tuesday works.', html: '<p>Tuesday works.</p>' },
        },
      }),
    events: ['sent', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed', 'completed'],
  },
  {
    provider: 'lemlist',
    authenticate: (apiKey, headers) => {
      headers.authorization = `Basic ${Buffer.from(`:${apiKey}`).toString('base64')}`;
    },
    // lemlist carries the email in the path; the body is the lead's other fields and custom variables.
    sampleLead: (n) => ({
      email: emailOf(n),
      firstName: 'Jane',
      lastName: 'Doe',
      companyName: 'Acme',
      linkedinUrl: profile(n),
      first_line: 'Saw Acme is hiring two controllers',
    }),
    identity: (lead) => ({ email: lead.email as string }),
    add: (call, campaignId, leads) =>
      call('POST', `/campaigns/${campaignId}/leads/${encodeURIComponent(String(leads[0]!.email))}`, {
        query: { deduplicate: 'true' },
        body: leads[0],
      }),
    addTooMany: (call, campaignId) =>
      call('POST', `/campaigns/${campaignId}/leads/${encodeURIComponent(emailOf(1))}`, {
        body: [{ firstName: 'Jane' }, { firstName: 'John' }],
      }),
    readCampaign: (call, campaignId) => call('GET', `/campaigns/${campaignId}`),
    registerWebhook: (call, campaignId, url) =>
      call('POST', '/hooks', { body: { targetUrl: url, campaignId } }),
    reply: null,
    events: ['sent', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed', 'completed'],
  },
  {
    provider: 'heyreach',
    authenticate: (apiKey, headers) => {
      headers['x-api-key'] = apiKey;
    },
    sampleLead: (n) => ({
      firstName: 'Jane',
      lastName: 'Doe',
      profileUrl: profile(n),
      companyName: 'Acme',
      position: 'Controller',
      emailAddress: emailOf(n),
      customUserFields: [{ name: 'first_line', value: 'Saw Acme is hiring two controllers' }],
    }),
    identity: (lead) => ({ linkedinUrl: lead.profileUrl as string }),
    add: (call, campaignId, leads) =>
      call('POST', '/campaign/AddLeadsToCampaignV2', {
        body: {
          campaignId: Number(campaignId),
          accountLeadPairs: leads.map((lead) => ({ linkedInAccountId: null, lead })),
        },
      }),
    addTooMany: (call, campaignId) =>
      call('POST', '/campaign/AddLeadsToCampaignV2', {
        body: {
          campaignId: Number(campaignId),
          accountLeadPairs: Array.from(
            { length: PROVIDER_FACTS.heyreach.maxLeadsPerRequest + 1 },
            (_, n) => ({
              linkedInAccountId: null,
              lead: { profileUrl: profile(n) },
            }),
          ),
        },
      }),
    readCampaign: (call, campaignId) => call('GET', '/campaign/GetById', { query: { campaignId } }),
    registerWebhook: (call, campaignId, url) =>
      call('POST', '/webhooks/CreateWebhook', {
        body: {
          webhookName: 'Outreach service',
          webhookUrl: url,
          eventType: 'MESSAGE_SENT',
          campaignIds: [Number(campaignId)],
        },
      }),
    reply: (call, _campaignId, payload) =>
      call('POST', '/inbox/SendMessage', {
        body: {
          message: 'Tuesday works.',
          subject: '',
          conversationId: payload.conversation_id,
          linkedInAccountId: (payload.sender as Json).id,
        },
      }),
    events: ['sent', 'replied', 'completed'],
  },
];

/** The activity kinds each played event maps to (a positive reply: the reply, then its classification). */
const EXPECTED_KINDS: Record<string, string[]> = {
  sent: ['message_sent'],
  opened: ['opened'],
  clicked: ['clicked'],
  replied: ['reply_received', 'reply_classified'],
  bounced: ['bounced'],
  unsubscribed: ['unsubscribed'],
  completed: ['completed'],
};

let emulators: ProviderEmulators;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

/** While set, the emulators' rate limits read this time rather than the clock's. */
let heldTime: number | undefined;

beforeAll(async () => {
  emulators = await startProviderEmulators({ playback: 'manual', clock: () => heldTime ?? Date.now() });
  receiver = await startReceiver();
});

afterAll(async () => {
  await emulators?.stop();
  await receiver?.stop();
});

const controlUrl = (provider: Provider, path: string) =>
  new URL(`/_emulator${path}`, emulators.urls[provider]).toString();

async function control(provider: Provider, method: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(controlUrl(provider, path), {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Json;
}

function callerFor(subject: ProviderUnderTest, apiKey: string): Caller {
  return (method, path, options = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const query = new URLSearchParams(options.query);
    subject.authenticate(apiKey, headers, query);
    const search = query.toString();
    return fetch(`${emulators.urls[subject.provider]}${path}${search ? `?${search}` : ''}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  };
}

/** A fresh workspace with one campaign: every test has its own rate-limit window and leads. */
async function workspaceWithCampaign(subject: ProviderUnderTest) {
  const { apiKey } = (await control(subject.provider, 'POST', '/workspaces', {})) as { apiKey: string };
  const { id } = (await control(subject.provider, 'POST', '/campaigns', {
    apiKey,
    name: 'Q1 Finance Leaders',
  })) as {
    id: string;
  };
  return { apiKey, campaignId: id, call: callerFor(subject, apiKey) };
}

interface EmulatedLeadView {
  leadId: string;
  campaignId: string;
  status: string;
  received: unknown;
}

async function leadsOf(provider: Provider, apiKey: string, campaignId?: string): Promise<EmulatedLeadView[]> {
  const query = new URLSearchParams({ apiKey, ...(campaignId ? { campaignId } : {}) });
  return ((await control(provider, 'GET', `/leads?${query}`)) as { leads: EmulatedLeadView[] }).leads;
}

/** Maps one received payload; it must be recorded (not ignored). */
function activitiesOf(provider: Provider, payload: Json): ProviderActivity[] {
  const mapped = PROVIDER_PAYLOAD_MAPPERS[provider](payload);
  if (!('activities' in mapped)) throw new Error(`${provider} payload ignored: ${mapped.ignored}`);
  return mapped.activities;
}

describe.each(PROVIDERS)('the $provider emulator', (subject) => {
  const { provider } = subject;

  it('answers on the provider’s real base path', () => {
    expect(emulators.urls[provider]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(new URL(emulators.urls[provider]).pathname).toBe(
      new URL(PROVIDER_FACTS[provider].defaultBaseUrl).pathname,
    );
  });

  it('refuses a wrong API key with 401 and logs requests without the key', async () => {
    const { apiKey, campaignId } = await workspaceWithCampaign(subject);
    const wrong = await subject.readCampaign(callerFor(subject, 'not-a-key'), campaignId);
    expect(wrong.status).toBe(401);
    const right = await subject.readCampaign(callerFor(subject, apiKey), campaignId);
    expect(right.status).toBe(200);
    const { requests } = (await control(
      provider,
      'GET',
      `/requests?apiKey=${encodeURIComponent(apiKey)}`,
    )) as {
      requests: Json[];
    };
    expect(requests.map((request) => request.status)).toEqual([200]);
    expect(JSON.stringify(requests)).not.toContain(apiKey);
  });

  it('answers 404 for a campaign the workspace does not have', async () => {
    const { call } = await workspaceWithCampaign(subject);
    const unknown =
      provider === 'instantly'
        ? '00000000-0000-4000-8000-000000000000'
        : provider === 'lemlist'
          ? 'cam_unknown'
          : '1';
    expect((await subject.readCampaign(call, unknown)).status).toBe(404);
    expect((await subject.add(call, unknown, [subject.sampleLead(1)])).status).toBe(404);
  });

  it(`refuses an add request over ${PROVIDER_FACTS[provider].maxLeadsPerRequest} lead(s) with 400, adding none`, async () => {
    const { apiKey, campaignId, call } = await workspaceWithCampaign(subject);
    expect((await subject.addTooMany(call, campaignId)).status).toBe(400);
    expect(await leadsOf(provider, apiKey)).toEqual([]);
  });

  it('answers 429 with Retry-After in seconds once the documented rate is exceeded', async () => {
    const { campaignId, call } = await workspaceWithCampaign(subject);
    const { requests } = PROVIDER_FACTS[provider].rateLimit;
    const statuses: number[] = [];
    // Time held still: the window's count decides, however slowly a loaded machine sends the requests.
    heldTime = Date.now();
    let limited: Awaited<ReturnType<typeof subject.readCampaign>>;
    try {
      for (let n = 0; n < requests; n++) statuses.push((await subject.readCampaign(call, campaignId)).status);
      limited = await subject.readCampaign(call, campaignId);
    } finally {
      heldTime = undefined;
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(PROVIDER_FACTS[provider].rateLimit.perMs / 1000));
  });

  it('keeps every field of an added lead exactly as received, and never adds a lead twice', async () => {
    const { apiKey, campaignId, call } = await workspaceWithCampaign(subject);
    const lead = subject.sampleLead(1);
    const first = await subject.add(call, campaignId, [lead]);
    expect(first.status).toBe(200);
    const stored = await leadsOf(provider, apiKey, campaignId);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.status).toBe('active');
    expect(stored[0]!.received).toEqual(lead);

    const again = await subject.add(call, campaignId, [lead]);
    expect(again.status === 200 || again.status === 409).toBe(true);
    expect(await leadsOf(provider, apiKey, campaignId)).toHaveLength(1);
  });

  it('plays each fault kind: 429 with Retry-After, 500, and an add carried out whose answer is dropped', async () => {
    const { apiKey, campaignId, call } = await workspaceWithCampaign(subject);
    await control(provider, 'POST', '/faults', {
      apiKey,
      kind: 'rate-limit',
      count: 1,
      retryAfterSeconds: 7,
    });
    const limited = await subject.readCampaign(call, campaignId);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');

    await control(provider, 'POST', '/faults', { apiKey, kind: 'server-error', count: 2 });
    expect((await subject.readCampaign(call, campaignId)).status).toBe(500);
    expect((await subject.readCampaign(call, campaignId)).status).toBe(500);
    expect((await subject.readCampaign(call, campaignId)).status).toBe(200);

    await control(provider, 'POST', '/faults', { apiKey, kind: 'drop-after-accept', count: 1 });
    // A read is not an add: it is answered.
    expect((await subject.readCampaign(call, campaignId)).status).toBe(200);
    await expect(subject.add(call, campaignId, [subject.sampleLead(2)])).rejects.toThrow();
    const stored = await leadsOf(provider, apiKey, campaignId);
    expect(stored.map((lead) => lead.received)).toEqual([subject.sampleLead(2)]);
    // The fault is spent: the next add is answered (and does not add the lead again).
    const retried = await subject.add(call, campaignId, [subject.sampleLead(2)]);
    expect(retried.status === 200 || retried.status === 409).toBe(true);
    expect(await leadsOf(provider, apiKey, campaignId)).toHaveLength(1);
  });

  it('posts native payloads the service maps to activities of the right kind, campaign and lead', async () => {
    const { apiKey, campaignId, call } = await workspaceWithCampaign(subject);
    const path = `/${provider}/manual/${campaignId}`;
    const registered = await subject.registerWebhook(call, campaignId, `${receiver.url}${path}`);
    expect(registered.status).toBe(200);
    // The provider's registration above may filter events; the control API's takes them all.
    await control(provider, 'POST', '/webhooks', { apiKey, url: `${receiver.url}${path}` });

    const leads = [subject.sampleLead(11), subject.sampleLead(12), subject.sampleLead(13)];
    for (const lead of leads) expect((await subject.add(call, campaignId, [lead])).status).toBe(200);
    const stored = await leadsOf(provider, apiKey, campaignId);
    const leadIdOf = (lead: Json) =>
      stored.find((item) => JSON.stringify(item.received) === JSON.stringify(lead))!.leadId;

    const play = async (lead: Json, type: string, classification?: string) => {
      const before = receiver.on(path).length;
      const answer = await control(provider, 'POST', `/leads/${encodeURIComponent(leadIdOf(lead))}/events`, {
        type,
        ...(classification ? { classification } : {}),
      });
      const delivered = answer.delivered as { status: number }[];
      expect(delivered.length).toBeGreaterThan(0);
      expect(delivered.every((delivery) => delivery.status === 200)).toBe(true);
      const payloads = receiver.on(path).slice(before);
      const activities = payloads.flatMap((payload) => activitiesOf(provider, payload.body));
      for (const activity of activities) {
        expect(activity.campaignExternalId).toBe(campaignId);
        const identity = subject.identity(lead);
        if (identity.email) expect(activity.lead.email).toBe(identity.email.toLowerCase());
        if (identity.linkedinUrl) expect(activity.lead.linkedinUrl).toBe(identity.linkedinUrl);
      }
      return { activities, payloads };
    };
    const uniqueKinds = (activities: ProviderActivity[]) => [
      ...new Set(activities.map((activity) => activity.kind)),
    ];

    const [main, bouncing, completing] = leads as [Json, Json, Json];
    const has = (event: string) => subject.events.includes(event);
    expect(uniqueKinds((await play(main, 'sent')).activities)).toEqual(EXPECTED_KINDS.sent);
    if (has('opened'))
      expect(uniqueKinds((await play(main, 'opened')).activities)).toEqual(EXPECTED_KINDS.opened);
    if (has('clicked'))
      expect(uniqueKinds((await play(main, 'clicked')).activities)).toEqual(EXPECTED_KINDS.clicked);

    const replied = await play(main, 'replied', 'positive');
    const replyKinds = provider === 'heyreach' ? ['reply_received'] : EXPECTED_KINDS.replied;
    expect(uniqueKinds(replied.activities)).toEqual(replyKinds);
    const classified = replied.activities.find((activity) => activity.kind === 'reply_classified');
    if (classified) expect(classified.responseType).toBe('positive');

    if (subject.reply) {
      const replyPayload = replied.payloads.find((payload) =>
        activitiesOf(provider, payload.body).some((activity) => activity.kind === 'reply_received'),
      )!.body;
      expect((await subject.reply(call, campaignId, replyPayload)).status).toBe(200);
      const { replies } = (await control(
        provider,
        'GET',
        `/replies?apiKey=${encodeURIComponent(apiKey)}`,
      )) as {
        replies: { leadId: string; campaignId: string; thread: Json }[];
      };
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatchObject({ leadId: leadIdOf(main), campaignId });
      // A thread the emulator never issued is refused.
      const bogus = { ...replyPayload, stats_id: 'nope', email_id: 'nope', conversation_id: 'nope' };
      expect((await subject.reply(call, campaignId, bogus)).status).toBe(404);
    }

    if (has('unsubscribed')) {
      expect(uniqueKinds((await play(main, 'unsubscribed')).activities)).toEqual(EXPECTED_KINDS.unsubscribed);
    }
    if (has('bounced')) {
      await play(bouncing, 'sent');
      expect(uniqueKinds((await play(bouncing, 'bounced')).activities)).toEqual(EXPECTED_KINDS.bounced);
    }
    if (has('completed')) {
      await play(completing, 'sent');
      expect(uniqueKinds((await play(completing, 'completed')).activities)).toEqual(EXPECTED_KINDS.completed);
    }
    // An event the provider has no webhook for is refused rather than faked.
    for (const event of Object.keys(EXPECTED_KINDS).filter((name) => !has(name))) {
      const response = await fetch(
        controlUrl(provider, `/leads/${encodeURIComponent(leadIdOf(main))}/events`),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: event }),
        },
      );
      expect(response.status).toBe(422);
    }
  });
});

describe('compressed playback', () => {
  let compressed: ProviderEmulators;

  beforeAll(async () => {
    // Every lead replies, positively: the whole sequence is played without the control API.
    compressed = await startProviderEmulators({
      playback: 'compressed',
      stepMs: 20,
      replyShare: 1,
      positiveShare: 1,
    });
  });

  afterAll(async () => {
    await compressed?.stop();
  });

  it.each(PROVIDERS)(
    'plays an added $provider lead’s sequence on its own clock, and a stopped lead no more',
    async (subject) => {
      const { provider } = subject;
      const controlOf = async (path: string, body: unknown) => {
        const response = await fetch(new URL(`/_emulator${path}`, compressed.urls[provider]), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return (await response.json()) as Json;
      };
      const { apiKey } = (await controlOf('/workspaces', {})) as { apiKey: string };
      const { id: campaignId } = (await controlOf('/campaigns', { apiKey })) as { id: string };
      const path = `/${provider}/compressed/${campaignId}`;
      await controlOf('/webhooks', { apiKey, url: `${receiver.url}${path}` });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const call: Caller = (method, apiPath, options = {}) => {
        const query = new URLSearchParams(options.query);
        subject.authenticate(apiKey, headers, query);
        return fetch(`${compressed.urls[provider]}${apiPath}?${query}`, {
          method,
          headers,
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        });
      };
      const lead = subject.sampleLead(21);
      expect((await subject.add(call, campaignId, [lead])).status).toBe(200);

      const expected =
        provider === 'heyreach'
          ? ['message_sent', 'reply_received']
          : ['message_sent', 'reply_received', 'reply_classified'];
      const kinds = await waitFor(
        () => {
          const seen = receiver
            .on(path)
            .flatMap((payload) => activitiesOf(provider, payload.body))
            .map((activity) => activity.kind);
          for (const kind of expected) expect(seen).toContain(kind);
          return seen;
        },
        { what: `${provider} compressed playback` },
      );
      if (provider !== 'heyreach') expect(kinds).toContain('opened');
      // The reply is classified after it is received.
      if (provider !== 'heyreach')
        expect(kinds.indexOf('reply_classified')).toBeGreaterThan(kinds.indexOf('reply_received'));
    },
  );
});

describe('the control API refuses what a web page could send it', () => {
  // A page a developer visits may POST to 127.0.0.1 without a preflight when
  // the body is text/plain, a form or multipart: only JSON, and no foreign origin.
  const workspaceExists = async (apiKey: string) =>
    (await fetch(controlUrl('smartlead', `/leads?apiKey=${apiKey}`))).status !== 404;

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['no content type', null],
  ])('answers 415 to a POST of %s, and does nothing', async (_what, contentType) => {
    const apiKey = `plain-${Math.random().toString(36).slice(2)}`;
    const response = await fetch(controlUrl('smartlead', '/workspaces'), {
      method: 'POST',
      headers: contentType === null ? {} : { 'content-type': contentType },
      body: contentType === null ? undefined : JSON.stringify({ apiKey }),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/application\/json/) });
    expect(await workspaceExists(apiKey)).toBe(false);
  });

  it('answers 403 to a request from another origin, and does nothing', async () => {
    const apiKey = `foreign-${Math.random().toString(36).slice(2)}`;
    for (const origin of ['http://attacker.example', 'null', 'http://localhost:1']) {
      const response = await fetch(controlUrl('smartlead', '/workspaces'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ apiKey }),
      });
      expect({ origin, status: response.status }).toEqual({ origin, status: 403 });
    }
    const read = await fetch(controlUrl('smartlead', '/requests'), {
      headers: { origin: 'http://attacker.example' },
    });
    expect(read.status).toBe(403);
    expect(await workspaceExists(apiKey)).toBe(false);
  });

  it('takes JSON from its own origin or from a client that sends none, and GETs without a body', async () => {
    const own = new URL(emulators.urls.smartlead).origin;
    const fromPage = await fetch(controlUrl('smartlead', '/workspaces'), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', origin: own },
      body: JSON.stringify({}),
    });
    expect(fromPage.status).toBe(201);
    const { apiKey } = (await fromPage.json()) as { apiKey: string };
    expect(await workspaceExists(apiKey)).toBe(true);
    expect((await fetch(controlUrl('smartlead', '/requests'), { method: 'DELETE' })).status).toBe(200);
  });
});
