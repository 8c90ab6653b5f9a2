import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderHttp } from '#providers/contract.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { smartleadClient } from '#providers/smartlead/client.ts';
import { startProviderEmulators } from '../../infra/local/provider-emulators/index.ts';
import {
  caughtProviderError,
  closedPort,
  emulatorControl,
  fetchHttp,
} from '../support/provider-emulator-http.ts';

/**
 * Smartlead's client against its emulator over real HTTP: the credential
 * check, the campaign listing, the add's batch size, each request as the
 * emulator received it and each answer as the client read it.
 */

type Emulators = Awaited<ReturnType<typeof startProviderEmulators>>;
let emulators: Emulators;

beforeAll(async () => {
  emulators = await startProviderEmulators({ playback: 'manual' });
});

afterAll(async () => {
  await emulators?.stop();
});

const baseUrl = () => emulators.urls.smartlead;
const control = emulatorControl(baseUrl);
const caught = caughtProviderError;

const newWorkspace = async () => (await control<{ apiKey: string }>('POST', '/workspaces', {})).apiKey;
const newCampaign = async (apiKey: string, name: string) =>
  String((await control<{ id: string | number }>('POST', '/campaigns', { apiKey, name })).id);
const apiRequests = async (apiKey: string) =>
  (
    await control<{ requests: { kind: string; method: string; path: string; status: number }[] }>(
      'GET',
      `/requests?apiKey=${encodeURIComponent(apiKey)}`,
    )
  ).requests.filter((entry) => entry.kind === 'api');

describe('Smartlead credential check', () => {
  it('accepts the right key with one GET /campaigns/, the key in the query only', async () => {
    const apiKey = await newWorkspace();
    await expect(smartleadClient.checkCredentials(fetchHttp(baseUrl()), { apiKey })).resolves.toEqual({
      workspaceId: null,
    });
    // The log keeps the path and query without the key.
    expect(await apiRequests(apiKey)).toMatchObject([
      { method: 'GET', path: '/api/v1/campaigns/', status: 200 },
    ]);
  });

  it('refuses a wrong key with the status Smartlead answered, and the emulator answers as documented', async () => {
    const refused = await caught(
      smartleadClient.checkCredentials(fetchHttp(baseUrl()), { apiKey: 'not-a-smartlead-key' }),
    );
    expect(refused).toMatchObject({
      kind: 'refused',
      message: 'Smartlead refused this API key (401)',
      status: 401,
    });
    // api.smartlead.ai/authentication, "Authentication Errors".
    const raw = await fetch(`${baseUrl()}/campaigns/?api_key=not-a-smartlead-key`);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' },
    });
  });

  it('is unavailable when nothing answers', async () => {
    const http = fetchHttp(`http://127.0.0.1:${await closedPort()}/api/v1`);
    const unavailable = await caught(smartleadClient.checkCredentials(http, { apiKey: 'any' }));
    expect(unavailable.kind).toBe('unavailable');
  });

  it('is unavailable when Smartlead fails (5xx)', async () => {
    const apiKey = await newWorkspace();
    await control('POST', '/faults', { apiKey, kind: 'server-error', count: 1 });
    const failed = await caught(smartleadClient.checkCredentials(fetchHttp(baseUrl()), { apiKey }));
    expect(failed).toMatchObject({ kind: 'unavailable', status: 500 });
  });
});

describe('Smartlead campaign listing', () => {
  it('answers every campaign once, newest first, in one page (Smartlead does not page this list)', async () => {
    const apiKey = await newWorkspace();
    const ids: string[] = [];
    for (let index = 1; index <= 130; index += 1) ids.push(await newCampaign(apiKey, `Campaign ${index}`));
    await control('DELETE', `/requests?apiKey=${encodeURIComponent(apiKey)}`);

    const seen: string[] = [];
    const names = new Map<string, string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await smartleadClient.listCampaigns(fetchHttp(baseUrl()), { apiKey }, cursor);
      pages += 1;
      for (const campaign of page.campaigns) {
        seen.push(campaign.id);
        names.set(campaign.id, campaign.name);
        expect(campaign).toEqual({
          id: campaign.id,
          name: campaign.name,
          status: 'active',
          acceptsLeads: true,
        });
      }
      cursor = page.next;
    } while (cursor !== null && pages < 10);

    expect(pages).toBe(1);
    // Documented order: by id, descending (api.smartlead.ai/api-reference/campaigns/get-all).
    expect(seen).toEqual([...ids].sort((left, right) => Number(right) - Number(left)));
    expect(new Set(seen).size).toBe(130);
    expect(names.get(ids[0]!)).toBe('Campaign 1');
    expect(await apiRequests(apiKey)).toMatchObject([
      { method: 'GET', path: '/api/v1/campaigns/', status: 200 },
    ]);
  });

  it('reads the documented campaign object, and whether it takes leads from its status', async () => {
    const apiKey = await newWorkspace();
    const id = await newCampaign(apiKey, 'Q1 Finance Leaders');
    const raw = await fetch(`${baseUrl()}/campaigns/?api_key=${encodeURIComponent(apiKey)}`);
    const [campaign] = (await raw.json()) as Record<string, unknown>[];
    // The fields of api.smartlead.ai/api-reference/campaigns/get-all's example.
    expect(campaign).toMatchObject({
      id: Number(id),
      name: 'Q1 Finance Leaders',
      status: 'ACTIVE',
      user_id: expect.any(Number),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      client_id: null,
      parent_campaign_id: null,
    });
    const answer =
      (body: unknown): ProviderHttp =>
      async () => ({ status: 200, retryAfterSeconds: null, body });
    const listed = (status: string) =>
      smartleadClient.listCampaigns(answer([{ id: 7, name: 'Seven', status }]), { apiKey }, null);
    expect((await listed('ACTIVE')).campaigns).toEqual([
      { id: '7', name: 'Seven', status: 'active', acceptsLeads: true },
    ]);
    for (const status of ['DRAFTED', 'PAUSED', 'STOPPED', 'COMPLETED', 'ARCHIVED']) {
      expect((await listed(status)).campaigns[0]).toMatchObject({
        status: status.toLowerCase(),
        acceptsLeads: false,
      });
    }
    // A list that is not the documented array is the provider misbehaving.
    const odd = await caught(smartleadClient.listCampaigns(answer({ campaigns: 'none' }), { apiKey }, null));
    expect(odd.kind).toBe('unavailable');
  });
});

describe('Smartlead add batch', () => {
  const leadList = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, index) => ({ email: `${prefix}.${index}@example.com` }));

  it('takes 400 leads in one request, as documented, and refuses 401', async () => {
    expect(PROVIDER_FACTS.smartlead.maxLeadsPerRequest).toBe(400);
    const apiKey = await newWorkspace();
    const campaignId = await newCampaign(apiKey, 'Batch');
    const add = (count: number, prefix: string) =>
      fetch(`${baseUrl()}/campaigns/${campaignId}/leads?api_key=${encodeURIComponent(apiKey)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lead_list: leadList(count, prefix), settings: {} }),
      });
    const accepted = await add(400, 'four-hundred');
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ upload_count: 400, total_leads: 400 });
    const tooMany = await add(401, 'four-hundred-one');
    expect(tooMany.status).toBe(400);
  });
});
