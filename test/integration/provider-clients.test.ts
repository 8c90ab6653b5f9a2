import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '#definitions/providers.ts';
import { providerClients } from '#providers/clients.ts';
import {
  type LeadToEnroll,
  ProviderApiError,
  type ProviderHttp,
  type ProviderResponse,
} from '#providers/contract.ts';
import { payloadMappers } from '#providers/webhooks.ts';
import type { Provider } from '#schemas/import.ts';
import { startProviderEmulators } from '../../infra/local/provider-emulators/index.ts';

/** Every provider's adapter, as the consumer loads them. */
const PROVIDER_PAYLOAD_MAPPERS = await payloadMappers();
/** Every provider's client, as the enrollment consumer loads them. */
const PROVIDER_CLIENTS = await providerClients();

/**
 * Each provider client against its local emulator
 * (infra/local/provider-emulators/), through a real ProviderHttp over
 * `fetch`: what the emulator received field by field, no lead added twice,
 * per-lead refusals, a missing campaign and a wrong key refused, a 429 with its
 * Retry-After, a 500, a stop, and a reply in the thread a reply webhook named.
 */

type Emulators = Awaited<ReturnType<typeof startProviderEmulators>>;
let emulators: Emulators;

/** Reply webhooks the emulators post, by provider. */
const webhookPayloads: { provider: Provider; payload: unknown }[] = [];
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  // Manual playback: only the events a test plays happen.
  emulators = await startProviderEmulators({ playback: 'manual' });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const provider = (request.url ?? '').slice(1) as Provider;
      webhookPayloads.push({ provider, payload: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await emulators?.stop();
});

/** The transport a connection would use, minus the SSRF policy and pacing: fetch to base URL + path. */
function fetchHttp(baseUrl: string): ProviderHttp {
  return async (request) => {
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: {
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
      });
      text = await response.text();
    } catch {
      // The ProviderHttp contract: a connection failure is `unavailable`, never an HTTP status.
      throw new ProviderApiError('unavailable', 'the provider could not be reached');
    }
    let body: unknown = null;
    try {
      body = text.length > 0 ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    const answer: ProviderResponse = {
      status: response.status,
      retryAfterSeconds:
        response.headers.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : null,
      body,
    };
    return answer;
  };
}

/** The emulator's control API (below `/_emulator/`). */
async function control<Answer>(
  provider: Provider,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Answer> {
  // The control API is at the root of the emulator's port, whatever the API's base path.
  const response = await fetch(`${new URL(emulators.urls[provider]).origin}/_emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} /_emulator${path}`).toBeLessThan(300);
  return (await response.json()) as Answer;
}

interface EmulatedLead {
  leadId: string;
  campaignId: string;
  status: string;
  received: Record<string, unknown>;
  email: string | null;
  linkedinUrl: string | null;
}

/** A workspace (API key) of its own and a campaign in it. */
async function workspaceWithCampaign(provider: Provider) {
  const { apiKey } = await control<{ apiKey: string }>(provider, 'POST', '/workspaces', {});
  const { id } = await control<{ id: string | number }>(provider, 'POST', '/campaigns', {
    apiKey,
    name: 'Q1',
  });
  const campaignId = String(id);
  const leads = async () =>
    (
      await control<{ leads: EmulatedLead[] }>(
        provider,
        'GET',
        `/leads?apiKey=${encodeURIComponent(apiKey)}&campaignId=${encodeURIComponent(campaignId)}`,
      )
    ).leads;
  return { apiKey, campaignId, credentials: { apiKey }, http: fetchHttp(emulators.urls[provider]), leads };
}

let sequence = 0;
function lead(overrides: Partial<LeadToEnroll> = {}): LeadToEnroll {
  sequence += 1;
  return {
    ref: String(sequence),
    email: `jane.doe.${sequence}@example.com`,
    firstName: 'Jane',
    lastName: 'Doe',
    companyName: 'Acme',
    companyDomain: 'acme.example',
    title: 'Controller',
    linkedinUrl: `https://www.linkedin.com/in/jane-doe-${sequence}`,
    variables: { pain_point: 'month-end close', first_line: 'Saw your talk' },
    ...overrides,
  };
}

async function caught(promise: Promise<unknown>): Promise<ProviderApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
}

/** What each emulator received for `lead`, field by field, as each provider's add names the fields. */
const RECEIVED: Record<Provider, (lead: LeadToEnroll) => Record<string, unknown>> = {
  smartlead: (l) => ({
    email: l.email,
    first_name: l.firstName,
    last_name: l.lastName,
    company_name: l.companyName,
    website: l.companyDomain,
    linkedin_profile: l.linkedinUrl,
    custom_fields: { job_title: l.title, ...l.variables },
  }),
  instantly: (l) => ({
    email: l.email,
    first_name: l.firstName,
    last_name: l.lastName,
    company_name: l.companyName,
    job_title: l.title,
    website: l.companyDomain,
    custom_variables: { linkedin_url: l.linkedinUrl, ...l.variables },
  }),
  lemlist: (l) => ({
    firstName: l.firstName,
    lastName: l.lastName,
    companyName: l.companyName,
    companyDomain: l.companyDomain,
    linkedinUrl: l.linkedinUrl,
    jobTitle: l.title,
    ...l.variables,
  }),
  heyreach: (l) => ({
    profileUrl: l.linkedinUrl,
    firstName: l.firstName,
    lastName: l.lastName,
    companyName: l.companyName,
    position: l.title,
    emailAddress: l.email,
    customUserFields: Object.entries(l.variables).map(([name, value]) => ({ name, value })),
  }),
};

/** The emulator's record of what it received may wrap the lead (HeyReach's account/lead pair). */
const receivedLead = (provider: Provider, received: Record<string, unknown>): Record<string, unknown> =>
  provider === 'heyreach' && typeof received.lead === 'object' && received.lead !== null
    ? (received.lead as Record<string, unknown>)
    : received;

describe.each(PROVIDERS)('%s client against its emulator', (provider) => {
  const client = PROVIDER_CLIENTS[provider];

  it('enrolls with the variables, as the emulator received them field by field', async () => {
    const { credentials, http, campaignId, leads } = await workspaceWithCampaign(provider);
    const jane = lead();

    const outcomes = await client.enroll(http, credentials, campaignId, [jane]);

    expect(outcomes).toEqual([{ ref: jane.ref, status: 'enrolled', leadId: expect.any(String) }]);
    const [stored] = await leads();
    expect(stored?.status).toBe('active');
    expect(receivedLead(provider, stored!.received)).toMatchObject(RECEIVED[provider](jane));
  });

  it('never adds a lead twice: a second enroll and findEnrolled give its id', async () => {
    const { credentials, http, campaignId, leads } = await workspaceWithCampaign(provider);
    const jane = lead();
    const [first] = await client.enroll(http, credentials, campaignId, [jane]);
    if (first?.status !== 'enrolled') throw new Error('not enrolled');

    expect(await client.findEnrolled(http, credentials, campaignId, jane)).toBe(first.leadId);
    expect(await client.enroll(http, credentials, campaignId, [jane])).toEqual([first]);
    expect(await leads()).toHaveLength(1);
    expect(await client.findEnrolled(http, credentials, campaignId, lead())).toBeNull();
  });

  it('refuses a lead it cannot take, per lead, and enrolls the others', async () => {
    const { credentials, http, campaignId, leads } = await workspaceWithCampaign(provider);
    const good = lead();
    // HeyReach adds by LinkedIn profile; the others by email.
    const bad = provider === 'heyreach' ? lead({ linkedinUrl: null }) : lead({ email: 'not-an-email' });
    const noEmail = lead({ email: null });

    const outcomes = await client.enroll(http, credentials, campaignId, [good, bad, noEmail]);

    const byRef = new Map(outcomes.map((outcome) => [outcome.ref, outcome]));
    expect(byRef.get(good.ref)).toMatchObject({ status: 'enrolled' });
    expect(byRef.get(bad.ref)).toMatchObject({ status: 'refused', reason: expect.any(String) });
    const refusal = byRef.get(bad.ref);
    if (refusal?.status === 'refused') expect(refusal.reason).not.toContain('not-an-email');
    if (provider === 'heyreach') {
      expect(byRef.get(bad.ref)).toMatchObject({ reason: 'a LinkedIn profile URL is required' });
      expect(byRef.get(noEmail.ref)).toMatchObject({ status: 'enrolled' });
    } else {
      expect(byRef.get(noEmail.ref)).toEqual({
        ref: noEmail.ref,
        status: 'refused',
        reason: 'an email address is required',
      });
    }
    expect(outcomes).toHaveLength(3);
    expect((await leads()).filter((stored) => stored.status === 'active')).toHaveLength(
      provider === 'heyreach' ? 2 : 1,
    );
  });

  it('refuses an unknown campaign and a wrong key as a whole', async () => {
    const { credentials, http } = await workspaceWithCampaign(provider);
    const unknownCampaign = {
      smartlead: '999999999',
      instantly: '00000000-0000-4000-8000-000000000000',
      lemlist: 'cam_doesNotExist0000',
      heyreach: '999999999',
    }[provider];

    const missing = await caught(client.enroll(http, credentials, unknownCampaign, [lead()]));
    expect(missing).toMatchObject({ kind: 'refused', message: 'the provider campaign does not exist' });

    const wrongKey = await caught(client.enroll(http, { apiKey: 'wrong-key' }, unknownCampaign, [lead()]));
    expect(wrongKey).toMatchObject({ kind: 'refused', message: 'the provider refused the API key' });
    expect([401, 403]).toContain(wrongKey.status);
  });

  it('reads a 429 as rate-limited with its Retry-After, and a 500 as unavailable', async () => {
    const { apiKey, credentials, http, campaignId } = await workspaceWithCampaign(provider);

    await control(provider, 'POST', '/faults', {
      apiKey,
      kind: 'rate-limit',
      count: 1,
      retryAfterSeconds: 7,
    });
    const limited = await caught(client.enroll(http, credentials, campaignId, [lead()]));
    expect(limited).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterSeconds: 7 });

    await control(provider, 'POST', '/faults', { apiKey, kind: 'server-error', count: 1 });
    const failed = await caught(client.enroll(http, credentials, campaignId, [lead()]));
    expect(failed).toMatchObject({ kind: 'unavailable' });
    expect(failed.status).toBeGreaterThanOrEqual(500);
  });

  it('finds the lead an add reached even when its answer was lost', async () => {
    const { apiKey, credentials, http, campaignId } = await workspaceWithCampaign(provider);
    const jane = lead();
    await control(provider, 'POST', '/faults', { apiKey, kind: 'drop-after-accept', count: 1 });

    await caught(client.enroll(http, credentials, campaignId, [jane]));

    expect(await client.findEnrolled(http, credentials, campaignId, jane)).toEqual(expect.any(String));
  });

  it('stops the lead: the emulator shows it no longer active, and a second stop is no error', async () => {
    const { credentials, http, campaignId, leads } = await workspaceWithCampaign(provider);
    const jane = lead();
    const [outcome] = await client.enroll(http, credentials, campaignId, [jane]);
    if (outcome?.status !== 'enrolled') throw new Error('not enrolled');
    const enrolled = { leadId: outcome.leadId, email: jane.email, linkedinUrl: jane.linkedinUrl };

    await client.stop(http, credentials, campaignId, enrolled);

    const [stored] = await leads();
    expect(['paused', 'removed', 'stopped']).toContain(stored?.status);
    await client.stop(http, credentials, campaignId, enrolled);
  });

  it('replies in the thread its reply webhook named (or has no reply, lemlist)', async () => {
    if (!client.reply) {
      expect(provider).toBe('lemlist');
      return;
    }
    const { apiKey, credentials, http, campaignId, leads } = await workspaceWithCampaign(provider);
    const jane = lead();
    const [outcome] = await client.enroll(http, credentials, campaignId, [jane]);
    if (outcome?.status !== 'enrolled') throw new Error('not enrolled');
    await control(provider, 'POST', '/webhooks', { apiKey, url: `${receiverUrl}/${provider}` });
    const [stored] = await leads();
    const before = webhookPayloads.length;
    await control(provider, 'POST', `/leads/${encodeURIComponent(stored!.leadId)}/events`, {
      apiKey,
      type: 'sent',
    });
    await control(provider, 'POST', `/leads/${encodeURIComponent(stored!.leadId)}/events`, {
      apiKey,
      type: 'replied',
    });

    // The reply webhook, through the inbound mapper, gives the thread to answer in.
    const replyThread = webhookPayloads
      .slice(before)
      .filter((delivery) => delivery.provider === provider)
      .flatMap((delivery) => {
        const mapped = PROVIDER_PAYLOAD_MAPPERS[provider](delivery.payload);
        return 'activities' in mapped ? mapped.activities : [];
      })
      .find((activity) => activity.kind === 'reply_received')?.replyThread;
    expect(replyThread).toBeDefined();

    const sent = await client.reply(
      http,
      credentials,
      {
        campaignId,
        lead: { leadId: outcome.leadId, email: jane.email, linkedinUrl: jane.linkedinUrl },
        replyThread: replyThread!,
      },
      { subject: 'Re: Month-end close', text: 'Tuesday 10am works.', html: '<p>Tuesday 10am works.</p>' },
    );

    const { replies } = await control<{
      replies: { thread: Record<string, string>; text: string | null; html: string | null }[];
    }>(provider, 'GET', `/replies?apiKey=${encodeURIComponent(apiKey)}`);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.thread).toMatchObject(replyThread!);
    expect(`${replies[0]!.text ?? ''}${replies[0]!.html ?? ''}`).toContain('Tuesday 10am works.');
    if (provider === 'instantly') expect(sent.providerMessageId).toEqual(expect.any(String));
  });
});
