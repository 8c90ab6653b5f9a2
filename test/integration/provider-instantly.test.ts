import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadToEnroll, ProviderCampaign, ProviderHttp } from '#providers/contract.ts';
import { instantlyClient as client } from '#providers/instantly/client.ts';
import { providerHttp } from '#providers/transport.ts';
import { startProviderEmulators } from '../../infra/local/provider-emulators/index.ts';
import { caughtProviderError, closedPort, emulatorControl } from '../support/provider-emulator-http.ts';

/**
 * The Instantly client against the Instantly emulator over real HTTP (the
 * service's own transport, loopback allowed): the credential check reads the
 * key's workspace (two keys of one workspace answer the same id), a wrong key
 * is refused with its status, a closed port is unavailable; the campaign list
 * pages with `starting_after` and maps the numeric status; and a lead's title,
 * company and website go as Instantly's own lead fields, never as custom
 * variables, and come back in the documented Lead object.
 */

type Emulators = Awaited<ReturnType<typeof startProviderEmulators>>;
let emulators: Emulators;
let http: ProviderHttp;

beforeAll(async () => {
  emulators = await startProviderEmulators({ playback: 'manual' });
  http = providerHttp(emulators.urls.instantly, { policy: { allowLoopback: true }, timeoutMs: 30_000 });
});

afterAll(async () => {
  await emulators?.stop();
});

const control = emulatorControl(() => emulators.urls.instantly);

const workspace = async (body: Record<string, string> = {}) =>
  (await control<{ apiKey: string }>('POST', '/workspaces', body)).apiKey;

const campaign = async (apiKey: string, name: string) =>
  (await control<{ id: string }>('POST', '/campaigns', { apiKey, name })).id;

/** One call of the Instantly API as the emulator answers it, for the shapes the client does not read. */
async function api(apiKey: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await http({
    method,
    path,
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(body === undefined ? {} : { body }),
  });
  return response;
}

describe('Instantly credential check (GET /workspaces/current)', () => {
  it("accepts a key and answers its workspace's id; two keys of one workspace answer the same id", async () => {
    const first = await workspace();
    const second = await workspace({ sameWorkspaceAs: first });
    const other = await workspace();

    const accepted = await client.checkCredentials(http, { apiKey: first });
    expect(accepted.workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.checkCredentials(http, { apiKey: second })).toEqual(accepted);
    expect((await client.checkCredentials(http, { apiKey: other })).workspaceId).not.toBe(
      accepted.workspaceId,
    );

    // The documented Workspace object.
    const answer = await api(first, 'GET', '/workspaces/current');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: accepted.workspaceId,
      timestamp_created: expect.any(String),
      timestamp_updated: expect.any(String),
      owner: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: expect.any(String),
    });
    // The request the emulator received: the workspace read, once, under the key that made it.
    const { requests } = await control<{ requests: { method: string; path: string; status: number }[] }>(
      'GET',
      `/requests?apiKey=${encodeURIComponent(second)}`,
    );
    expect(requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/api/v2/workspaces/current', status: 200 },
    ]);
  });

  it('refuses a wrong key with the status and body Instantly answers', async () => {
    const error = await caughtProviderError(client.checkCredentials(http, { apiKey: 'not-a-key' }));
    expect(error.kind).toBe('refused');
    expect(error.status).toBe(401);
    expect(error.message).toBe('Instantly refused this API key (401)');

    const answer = await api('not-a-key', 'GET', '/workspaces/current');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
  });

  it('is unavailable when Instantly cannot be reached', async () => {
    const unreachable = providerHttp(`http://127.0.0.1:${await closedPort()}/api/v2`, {
      policy: { allowLoopback: true },
      timeoutMs: 30_000,
    });
    const error = await caughtProviderError(client.checkCredentials(unreachable, { apiKey: 'any' }));
    expect(error.kind).toBe('unavailable');
  });

  it('is unavailable on a 5xx', async () => {
    const apiKey = await workspace();
    await control('POST', '/faults', { apiKey, kind: 'server-error', count: 1 });
    const error = await caughtProviderError(client.checkCredentials(http, { apiKey }));
    expect(error.kind).toBe('unavailable');
    expect(error.status).toBe(500);
  });
});

describe('Instantly campaign listing (GET /campaigns)', () => {
  it('pages with limit and starting_after: every campaign once, in order', async () => {
    const apiKey = await workspace();
    const ids: string[] = [];
    // More than one page of 100, and a last page that is full (Instantly then still answers a cursor).
    for (let n = 1; n <= 200; n++) ids.push(await campaign(apiKey, `Campaign ${n}`));

    const seen: ProviderCampaign[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await client.listCampaigns(http, { apiKey }, cursor);
      seen.push(...page.campaigns);
      cursor = page.next;
      pages += 1;
      expect(pages).toBeLessThan(10);
    } while (cursor !== null);

    expect(seen.map((item) => item.id)).toEqual(ids);
    expect(seen[0]).toEqual({ id: ids[0], name: 'Campaign 1', status: 'active', acceptsLeads: true });

    // The requests: `limit` and `starting_after` in the query, the cursor the previous answer's.
    const { requests } = await control<{ requests: { method: string; path: string }[] }>(
      'GET',
      `/requests?apiKey=${encodeURIComponent(apiKey)}`,
    );
    expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /api/v2/campaigns?limit=100',
      `GET /api/v2/campaigns?limit=100&starting_after=${ids[99]}`,
      `GET /api/v2/campaigns?limit=100&starting_after=${ids[199]}`,
    ]);
  });

  it('reads the numeric status as a word, and only an active campaign accepts leads', async () => {
    const apiKey = await workspace();
    const active = await campaign(apiKey, 'Running');
    const paused = await campaign(apiKey, 'Stopped');
    const schedule = {
      schedules: [
        {
          name: 'Office hours',
          timing: { from: '09:00', to: '17:00' },
          days: { 1: true, 2: true, 3: true, 4: true, 5: true },
          timezone: 'Europe/Belgrade',
        },
      ],
    };
    expect((await api(apiKey, 'POST', `/campaigns/${paused}/pause`)).status).toBe(200);
    const created = await api(apiKey, 'POST', '/campaigns', {
      name: 'Not launched',
      campaign_schedule: schedule,
    });
    expect(created.status).toBe(200);
    const draft = (created.body as { id: string }).id;

    const page = await client.listCampaigns(http, { apiKey }, null);
    expect(page).toEqual({
      campaigns: [
        { id: active, name: 'Running', status: 'active', acceptsLeads: true },
        { id: paused, name: 'Stopped', status: 'paused', acceptsLeads: false },
        { id: draft, name: 'Not launched', status: 'draft', acceptsLeads: false },
      ],
      next: null,
    });

    // The documented Campaign object, its schedule included.
    const listed = await api(apiKey, 'GET', '/campaigns?limit=10');
    const items = (listed.body as { items: Record<string, unknown>[] }).items;
    expect(items.map((item) => item.status)).toEqual([1, 2, 0]);
    expect(items[2]).toMatchObject({
      id: draft,
      name: 'Not launched',
      status: 0,
      timestamp_created: expect.any(String),
      timestamp_updated: expect.any(String),
      campaign_schedule: schedule,
    });
    for (const item of items) {
      expect(item.campaign_schedule).toMatchObject({
        schedules: [expect.objectContaining({ timezone: expect.any(String) })],
      });
    }
  });

  it('refuses a wrong key with its status', async () => {
    const error = await caughtProviderError(client.listCampaigns(http, { apiKey: 'not-a-key' }, null));
    expect(error.kind).toBe('refused');
    expect(error.status).toBe(401);
    expect(error.message).toBe('Instantly refused this API key (401)');
  });
});

describe('Instantly lead fields', () => {
  const lead = (overrides: Partial<LeadToEnroll> = {}): LeadToEnroll => ({
    ref: '1',
    email: 'ada.lovelace@analytical.example',
    firstName: 'Ada',
    lastName: 'Lovelace',
    companyName: 'Analytical Engines',
    companyDomain: 'analytical.example',
    title: 'Head of Finance',
    linkedinUrl: 'https://www.linkedin.com/in/ada-lovelace-example',
    variables: { first_line: 'Saw the difference engine demo' },
    ...overrides,
  });

  /** The lead's fields every add below sends as they are. */
  const PERSON = {
    email: 'ada.lovelace@analytical.example',
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: 'Analytical Engines',
  };

  /** The leads of a campaign as the emulator received them. */
  const receivedBy = async (apiKey: string, campaignId: string) =>
    (
      await control<{ leads: { received: Record<string, unknown> }[] }>(
        'GET',
        `/leads?apiKey=${encodeURIComponent(apiKey)}&campaignId=${campaignId}`,
      )
    ).leads.map((item) => item.received);

  it('sends job_title, company_name and website as lead fields, never as custom variables', async () => {
    const apiKey = await workspace();
    const id = await campaign(apiKey, 'Fields');
    const [outcome] = await client.enroll(http, { apiKey }, id, [lead()]);
    expect(outcome).toMatchObject({ ref: '1', status: 'enrolled' });
    const leadId = (outcome as { leadId: string }).leadId;

    // What the emulator received, field by field.
    expect(await receivedBy(apiKey, id)).toEqual([
      {
        ...PERSON,
        job_title: 'Head of Finance',
        website: 'analytical.example',
        custom_variables: {
          linkedin_url: 'https://www.linkedin.com/in/ada-lovelace-example',
          first_line: 'Saw the difference engine demo',
        },
      },
    ]);

    // The documented Lead object, as GET /leads/{id} answers it.
    const answer = await api(apiKey, 'GET', `/leads/${leadId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: leadId,
      campaign: id,
      ...PERSON,
      job_title: 'Head of Finance',
      website: 'analytical.example',
      phone: null,
      company_domain: 'analytical.example',
      status_summary: {},
      payload: {
        linkedin_url: 'https://www.linkedin.com/in/ada-lovelace-example',
        first_line: 'Saw the difference engine demo',
      },
    });
  });

  it("fills a lead field from a snippet variable of that field's name, never a custom variable of it", async () => {
    const apiKey = await workspace();
    const id = await campaign(apiKey, 'Variables');
    await client.enroll(http, { apiKey }, id, [
      lead({
        title: null,
        companyDomain: null,
        linkedinUrl: null,
        variables: { phone: '+44 20 7946 0000', job_title: 'Analyst', pain_point: 'close' },
      }),
    ]);
    expect(await receivedBy(apiKey, id)).toEqual([
      {
        ...PERSON,
        job_title: 'Analyst',
        phone: '+44 20 7946 0000',
        custom_variables: { pain_point: 'close' },
      },
    ]);
  });

  it('lists leads in the documented shape (POST /leads/list)', async () => {
    const apiKey = await workspace();
    const id = await campaign(apiKey, 'Listed');
    await client.enroll(http, { apiKey }, id, [lead()]);
    const answer = await api(apiKey, 'POST', '/leads/list', { campaign: id, limit: 10 });
    const [item] = (answer.body as { items: Record<string, unknown>[] }).items;
    expect(item).toMatchObject({
      job_title: 'Head of Finance',
      company_domain: 'analytical.example',
      status_summary: {},
    });
    expect(item!.payload).not.toHaveProperty('job_title');
  });
});

describe('Instantly campaign statuses, every documented one', () => {
  it.each([
    [-99, 'account_suspended', false],
    [-2, 'bounce_protect', false],
    [-1, 'accounts_unhealthy', false],
    [0, 'draft', false],
    [1, 'active', true],
    [2, 'paused', false],
    [3, 'completed', false],
    [4, 'running_subsequences', false],
    [7, 'status_7', false],
  ])('status %i reads as %s (accepts leads: %s)', async (code, word, acceptsLeads) => {
    // A transport that answers one page, as Instantly would, for a status the emulator cannot reach.
    const stub: ProviderHttp = async () => ({
      status: 200,
      retryAfterSeconds: null,
      body: { items: [{ id: 'c-1', name: 'One', status: code }] },
    });
    expect(await client.listCampaigns(stub, { apiKey: 'key' }, null)).toEqual({
      campaigns: [{ id: 'c-1', name: 'One', status: word, acceptsLeads }],
      next: null,
    });
  });
});
