import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadToEnroll, ProviderHttp, ProviderRequest } from '#providers/contract.ts';
import { lemlistClient } from '#providers/lemlist/client.ts';
import { startProviderEmulators } from '../../infra/local/provider-emulators/index.ts';
import {
  caughtProviderError,
  closedPort,
  emulatorControl,
  fetchHttp,
} from '../support/provider-emulator-http.ts';

/**
 * lemlist's client against its emulator over real HTTP: the credential check
 * (GET /team), the campaign listing (GET /campaigns, offset paging), the
 * lead lookup's v2 shape after a lost add answer and the retry's 409, the
 * add body's `companyDomain`, and the `access_token` query authentication,
 * each asserted on what the emulator received and what the client read.
 */

type Emulators = Awaited<ReturnType<typeof startProviderEmulators>>;
let emulators: Emulators;

beforeAll(async () => {
  emulators = await startProviderEmulators({ playback: 'manual' });
});

afterAll(async () => {
  await emulators?.stop();
});

const baseUrl = () => emulators.urls.lemlist;
const control = emulatorControl(baseUrl);
const caught = caughtProviderError;

/** The client's transport to the emulator, recording each request it was given. */
function recordingHttp(base: string, sent: ProviderRequest[] = []): ProviderHttp {
  const http = fetchHttp(base);
  return (request) => {
    sent.push(request);
    return http(request);
  };
}

const basic = (apiKey: string) => ({
  Authorization: `Basic ${Buffer.from(`:${apiKey}`).toString('base64')}`,
});
const newWorkspace = async () => (await control<{ apiKey: string }>('POST', '/workspaces', {})).apiKey;
const newCampaign = async (apiKey: string, name: string) =>
  String((await control<{ id: string }>('POST', '/campaigns', { apiKey, name })).id);
const apiRequests = async (apiKey: string) =>
  (
    await control<{ requests: { kind: string; method: string; path: string; status: number }[] }>(
      'GET',
      `/requests?apiKey=${encodeURIComponent(apiKey)}`,
    )
  ).requests.filter((entry) => entry.kind === 'api');

let sequence = 0;
function lead(overrides: Partial<LeadToEnroll> = {}): LeadToEnroll {
  sequence += 1;
  return {
    ref: String(sequence),
    email: `lead-${sequence}@example.com`,
    firstName: 'Jane',
    lastName: 'Doe',
    companyName: 'Acme',
    companyDomain: 'acme.example',
    title: 'Controller',
    linkedinUrl: null,
    variables: { pain_point: 'month-end close' },
    ...overrides,
  };
}

describe('lemlist credential check (GET /team)', () => {
  it('accepts the right key: one GET /team with Basic auth, the key as password', async () => {
    const apiKey = await newWorkspace();
    const sent: ProviderRequest[] = [];

    expect(await lemlistClient.checkCredentials(recordingHttp(baseUrl(), sent), { apiKey })).toEqual({
      workspaceId: null,
    });

    expect(sent).toEqual([{ method: 'GET', path: '/team', headers: basic(apiKey) }]);
    expect(await apiRequests(apiKey)).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/team', status: 200 }),
    ]);
  });

  it('refuses a wrong key with the status lemlist answered (401)', async () => {
    const error = await caught(
      lemlistClient.checkCredentials(recordingHttp(baseUrl()), { apiKey: 'not-a-key' }),
    );
    expect(error.kind).toBe('refused');
    expect(error.status).toBe(401);
    expect(error.message).toBe('lemlist refused this API key (401)');
  });

  it('is unavailable when lemlist cannot be reached', async () => {
    const http = recordingHttp(`http://127.0.0.1:${await closedPort()}/api`);
    const error = await caught(lemlistClient.checkCredentials(http, { apiKey: 'any' }));
    expect(error.kind).toBe('unavailable');
  });
});

describe('lemlist campaign listing (GET /campaigns)', () => {
  it('pages with offset/limit, oldest first: every campaign once, in order', async () => {
    const apiKey = await newWorkspace();
    const names = Array.from({ length: 105 }, (_, index) => `Campaign ${String(index).padStart(3, '0')}`);
    const ids: string[] = [];
    for (const name of names) ids.push(await newCampaign(apiKey, name));
    const sent: ProviderRequest[] = [];
    const http = recordingHttp(baseUrl(), sent);

    const seen: { id: string; name: string }[] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    do {
      const page = await lemlistClient.listCampaigns(http, { apiKey }, cursor);
      seen.push(...page.campaigns.map(({ id, name }) => ({ id, name })));
      cursor = page.next;
      cursors.push(cursor);
    } while (cursor !== null);

    expect(seen).toEqual(ids.map((id, index) => ({ id, name: names[index] })));
    expect(cursors).toEqual(['100', null]);
    expect(sent.map((request) => request.query)).toEqual([
      { version: 'v2', offset: '0', limit: '100', sortBy: 'createdAt', sortOrder: 'asc' },
      { version: 'v2', offset: '100', limit: '100', sortBy: 'createdAt', sortOrder: 'asc' },
    ]);
  });

  it('reads the status: a running campaign takes leads, a paused one does not', async () => {
    const apiKey = await newWorkspace();
    const running = await newCampaign(apiKey, 'Running');
    const paused = await newCampaign(apiKey, 'Paused');
    // lemlist's own "Pause Campaign" endpoint (POST /campaigns/{campaignId}/pause).
    const pause = await recordingHttp(baseUrl())({
      method: 'POST',
      path: `/campaigns/${paused}/pause`,
      headers: basic(apiKey),
    });
    expect(pause).toMatchObject({ status: 200, body: { _id: paused, state: 'paused' } });

    expect(await lemlistClient.listCampaigns(recordingHttp(baseUrl()), { apiKey }, null)).toEqual({
      campaigns: [
        { id: running, name: 'Running', status: 'running', acceptsLeads: true },
        { id: paused, name: 'Paused', status: 'paused', acceptsLeads: false },
      ],
      next: null,
    });
  });

  it('refuses a wrong key', async () => {
    const error = await caught(
      lemlistClient.listCampaigns(recordingHttp(baseUrl()), { apiKey: 'nope' }, null),
    );
    expect(error).toMatchObject({ kind: 'refused', status: 401 });
  });
});

describe('lemlist lead lookup (GET /leads/{email}?version=v2)', () => {
  it('after a lost add answer, the retry 409 and findEnrolled find the lead in this campaign', async () => {
    const apiKey = await newWorkspace();
    const campaignId = await newCampaign(apiKey, 'Q1');
    const credentials = { apiKey };
    const sent: ProviderRequest[] = [];
    const http = recordingHttp(baseUrl(), sent);
    const jane = lead();
    await control('POST', '/faults', { apiKey, kind: 'drop-after-accept', count: 1 });

    // The add reaches lemlist, but its answer is lost.
    const lost = await caught(lemlistClient.enroll(http, credentials, campaignId, [jane]));
    expect(lost.kind).toBe('unavailable');
    const [stored] = (
      await control<{ leads: { leadId: string; campaignId: string }[] }>(
        'GET',
        `/leads?apiKey=${encodeURIComponent(apiKey)}&campaignId=${campaignId}`,
      )
    ).leads;
    expect(stored?.campaignId).toBe(campaignId);

    // The retry: lemlist answers 409, and the lookup finds the lead in this campaign.
    expect(await lemlistClient.enroll(http, credentials, campaignId, [jane])).toEqual([
      { ref: jane.ref, status: 'enrolled', leadId: stored!.leadId },
    ]);
    expect(await lemlistClient.findEnrolled(http, credentials, campaignId, jane)).toBe(stored!.leadId);

    expect((await apiRequests(apiKey)).map(({ method, path, status }) => ({ method, path, status }))).toEqual(
      [
        {
          method: 'POST',
          path: `/api/campaigns/${campaignId}/leads/${encodeURIComponent(jane.email!)}?deduplicate=true`,
          status: 0,
        },
        {
          method: 'POST',
          path: `/api/campaigns/${campaignId}/leads/${encodeURIComponent(jane.email!)}?deduplicate=true`,
          status: 409,
        },
        { method: 'GET', path: `/api/leads/${encodeURIComponent(jane.email!)}?version=v2`, status: 200 },
        { method: 'GET', path: `/api/leads/${encodeURIComponent(jane.email!)}?version=v2`, status: 200 },
      ],
    );
  });

  it('answers the documented v2 shape: an array whose items nest campaign {id, name, status}', async () => {
    const apiKey = await newWorkspace();
    const first = await newCampaign(apiKey, 'First');
    const second = await newCampaign(apiKey, 'Second');
    const jane = lead();
    const http = recordingHttp(baseUrl());
    const [outcome] = await lemlistClient.enroll(http, { apiKey }, first, [jane]);
    if (outcome?.status !== 'enrolled') throw new Error('not enrolled');

    const answer = await http({
      method: 'GET',
      path: `/leads/${encodeURIComponent(jane.email!)}`,
      query: { version: 'v2' },
      headers: basic(apiKey),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      expect.objectContaining({
        _id: outcome.leadId,
        isPaused: false,
        source: 'api',
        variables: expect.objectContaining({
          email: jane.email,
          firstName: 'Jane',
          companyDomain: 'acme.example',
          pain_point: 'month-end close',
        }),
        campaign: { id: first, name: 'First', status: 'running' },
      }),
    ]);
    expect(answer.body).toEqual([expect.not.objectContaining({ campaignId: expect.anything() })]);

    // In another campaign only: findEnrolled answers null for this one, and an add there is refused.
    expect(await lemlistClient.findEnrolled(http, { apiKey }, second, jane)).toBeNull();
    expect(await lemlistClient.enroll(http, { apiKey }, second, [jane])).toEqual([
      { ref: jane.ref, status: 'refused', reason: 'already in another campaign at the provider' },
    ]);
  });
});

describe('lemlist add body and authentication', () => {
  it('sends companyDomain in the add body, as the reference places it, and lemlist keeps it', async () => {
    const apiKey = await newWorkspace();
    const campaignId = await newCampaign(apiKey, 'Q1');
    const sent: ProviderRequest[] = [];
    const http = recordingHttp(baseUrl(), sent);
    const jane = lead();

    const [outcome] = await lemlistClient.enroll(http, { apiKey }, campaignId, [jane]);
    expect(outcome).toEqual({ ref: jane.ref, status: 'enrolled', leadId: expect.stringMatching(/^lea_/) });

    // Not a query parameter (the classic page's table listed it there).
    expect(sent[0]).toMatchObject({
      query: { deduplicate: 'true' },
      body: expect.objectContaining({ companyDomain: 'acme.example' }),
    });
    const [stored] = (
      await control<{ leads: { received: Record<string, unknown> }[] }>(
        'GET',
        `/leads?apiKey=${encodeURIComponent(apiKey)}&campaignId=${campaignId}`,
      )
    ).leads;
    expect(stored?.received).toEqual({
      pain_point: 'month-end close',
      firstName: 'Jane',
      lastName: 'Doe',
      companyName: 'Acme',
      companyDomain: 'acme.example',
      jobTitle: 'Controller',
    });
  });

  it('accepts the key as the access_token query parameter, and never logs it', async () => {
    const apiKey = await newWorkspace();
    const http = recordingHttp(baseUrl());

    const team = await http({ method: 'GET', path: '/team', query: { access_token: apiKey } });
    expect(team.status).toBe(200);
    expect(team.body).toMatchObject({ _id: expect.stringMatching(/^tea_/) });
    // A key lemlist does not know: 401 and the reference's plain-text body.
    const wrong = await fetch(`${baseUrl()}/team?access_token=not-a-key`);
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toBe('The authentication you supplied is incorrect');

    const [logged] = await apiRequests(apiKey);
    expect(logged).toMatchObject({ method: 'GET', path: '/api/team', status: 200 });
  });
});
