import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processProviderWork } from '#domain/enrollment.ts';
import { createOrganization } from '#domain/organizations.ts';
import { connectProvider } from '#domain/provider-keys.ts';
import { pushContacts } from '#domain/raw-push.ts';
import { linkSequence } from '#domain/sequence-links.ts';
import { providerClients } from '#providers/clients.ts';
import type { LeadToEnroll, ProviderHttp } from '#providers/contract.ts';
import { getAssignments } from '#store/assignments.ts';
import { startProviderEmulators } from '../../infra/local/provider-emulators/index.ts';
import { importFor } from '../support/import.ts';
import {
  caughtProviderError,
  closedPort,
  emulatorControl,
  fetchHttp,
} from '../support/provider-emulator-http.ts';

/**
 * HeyReach's client against its emulator over real HTTP: the credential
 * check, the campaign list and its paging, and a campaign that takes no leads
 * (paused, no sender), down to the enrollment consumer, whose leads wait and
 * are enrolled once the campaign runs again.
 */

const client = (await providerClients()).heyreach;
type Emulators = Awaited<ReturnType<typeof startProviderEmulators>>;
let emulators: Emulators;
let baseUrl: string;
const KEY = 'heyreach-test-key';
const credentials = { apiKey: KEY };

const emulator = emulatorControl(() => baseUrl);
/** The control API below `/_emulator/` (path without its leading slash). */
const control = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  emulator<Record<string, unknown>>(method, `/${path}`, body);

async function newCampaign(apiKey: string, name: string): Promise<string> {
  return (await control('POST', 'campaigns', { apiKey, name })).id as string;
}

async function requestPaths(apiKey: string): Promise<string[]> {
  const { requests } = await control('GET', `requests?apiKey=${apiKey}`);
  return (requests as { kind: string; path: string }[])
    .filter((each) => each.kind === 'api')
    .map((each) => each.path.replace(/^\/api\/public/, ''));
}

const caught = caughtProviderError;

const lead = (name: string): LeadToEnroll => ({
  ref: name,
  email: null,
  firstName: name,
  lastName: 'Lead',
  companyName: null,
  companyDomain: null,
  title: null,
  linkedinUrl: `https://www.linkedin.com/in/heyreach-${name}`,
  variables: {},
});

beforeAll(async () => {
  emulators = await startProviderEmulators({ playback: 'manual' });
  baseUrl = emulators.urls.heyreach;
  await control('POST', 'workspaces', { apiKey: KEY });
});
afterAll(async () => {
  await emulators?.stop();
});

describe('HeyReach credential check (GET /auth/CheckApiKey)', () => {
  it('accepts the right key and names no workspace', async () => {
    expect(await client.checkCredentials(fetchHttp(baseUrl), credentials)).toEqual({ workspaceId: null });
    expect((await requestPaths(KEY)).at(-1)).toBe('/auth/CheckApiKey');
  });

  it('refuses a wrong key with its status', async () => {
    const error = await caught(client.checkCredentials(fetchHttp(baseUrl), { apiKey: 'not-a-key' }));
    expect(error.kind).toBe('refused');
    expect(error.status).toBe(401);
    expect(error.message).toBe('HeyReach refused this API key (401)');
  });

  it('is unavailable on a closed port', async () => {
    const http = fetchHttp(`http://127.0.0.1:${await closedPort()}/api/public`);
    const error = await caught(client.checkCredentials(http, credentials));
    expect(error.kind).toBe('unavailable');
  });
});

describe('HeyReach campaign list (POST /campaign/GetAll)', () => {
  it('pages by offset through every campaign once, in order, saying which take leads', async () => {
    const apiKey = 'heyreach-list-key';
    await control('POST', 'workspaces', { apiKey });
    const ids: string[] = [];
    for (let index = 0; index < 230; index++) ids.push(await newCampaign(apiKey, `Campaign ${index}`));
    await control('POST', `campaigns/${ids[1]}/state`, { apiKey, status: 'PAUSED' });
    await control('POST', `campaigns/${ids[2]}/state`, { apiKey, senderAccountIds: [] });
    await control('POST', `campaigns/${ids[3]}/state`, { apiKey, status: 'DRAFT' });

    const seen: { id: string; name: string; status: string; acceptsLeads: boolean }[] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    do {
      const page = await client.listCampaigns(fetchHttp(baseUrl), { apiKey }, cursor);
      seen.push(...page.campaigns);
      cursor = page.next;
      cursors.push(cursor);
    } while (cursor !== null);

    expect(cursors).toEqual(['100', '200', null]);
    expect(seen.map((each) => each.id)).toEqual(ids);
    expect(seen.slice(0, 5)).toEqual([
      { id: ids[0], name: 'Campaign 0', status: 'in_progress', acceptsLeads: true },
      { id: ids[1], name: 'Campaign 1', status: 'paused', acceptsLeads: false },
      { id: ids[2], name: 'Campaign 2', status: 'in_progress', acceptsLeads: false },
      { id: ids[3], name: 'Campaign 3', status: 'draft', acceptsLeads: false },
      { id: ids[4], name: 'Campaign 4', status: 'in_progress', acceptsLeads: true },
    ]);
    expect(await requestPaths(apiKey)).toEqual(['/campaign/GetAll', '/campaign/GetAll', '/campaign/GetAll']);
  });

  it('refuses a wrong key with its status', async () => {
    const error = await caught(client.listCampaigns(fetchHttp(baseUrl), { apiKey: 'not-a-key' }, null));
    expect(error).toMatchObject({
      kind: 'refused',
      status: 401,
      message: 'HeyReach refused this API key (401)',
    });
  });
});

describe('HeyReach campaign that takes no leads', () => {
  it('is campaign-not-ready while paused, then adds each lead from one of its senders once resumed', async () => {
    const apiKey = 'heyreach-pause-key';
    await control('POST', 'workspaces', { apiKey });
    const campaignId = await newCampaign(apiKey, 'Paused then resumed');
    await control('POST', `campaigns/${campaignId}/state`, { apiKey, senderAccountIds: [7001, 7002] });
    const http = fetchHttp(baseUrl);
    // Paused through HeyReach's own endpoint.
    expect(
      (
        await http({
          method: 'POST',
          path: '/campaign/Pause',
          query: { campaignId },
          headers: { 'X-API-KEY': apiKey },
        })
      ).status,
    ).toBe(200);

    const error = await caught(client.enroll(http, { apiKey }, campaignId, [lead('ada'), lead('bob')]));
    expect(error.kind).toBe('campaign-not-ready');
    expect(error.message).toBe('the provider campaign is not running (PAUSED)');
    expect((await control('GET', `leads?apiKey=${apiKey}`)).leads).toEqual([]);
    // The campaign was read; nothing was added.
    expect(await requestPaths(apiKey)).toEqual([
      `/campaign/Pause?campaignId=${campaignId}`,
      `/campaign/GetById?campaignId=${campaignId}`,
    ]);

    expect(
      (
        await http({
          method: 'POST',
          path: '/campaign/Resume',
          query: { campaignId },
          headers: { 'X-API-KEY': apiKey },
        })
      ).status,
    ).toBe(200);
    expect(await client.enroll(http, { apiKey }, campaignId, [lead('ada'), lead('bob')])).toEqual([
      { ref: 'ada', status: 'enrolled', leadId: 'https://www.linkedin.com/in/heyreach-ada' },
      { ref: 'bob', status: 'enrolled', leadId: 'https://www.linkedin.com/in/heyreach-bob' },
    ]);
    // Each lead is sent from one of the campaign's senders, in turn.
    const listed = await http({
      method: 'POST',
      path: '/campaign/GetLeadsFromCampaign',
      headers: { 'X-API-KEY': apiKey },
      body: { campaignId: Number(campaignId), offset: 0, limit: 100 },
    });
    const items = (listed.body as { items: { profileUrl: string; linkedInSenderId: number }[] }).items;
    expect(items.map((each) => [each.profileUrl, each.linkedInSenderId])).toEqual([
      ['https://www.linkedin.com/in/heyreach-ada', 7001],
      ['https://www.linkedin.com/in/heyreach-bob', 7002],
    ]);
  });

  it('is campaign-not-ready without a sender account, and the emulator refuses a stranger sender', async () => {
    const apiKey = 'heyreach-nosender-key';
    await control('POST', 'workspaces', { apiKey });
    const campaignId = await newCampaign(apiKey, 'No sender');
    await control('POST', `campaigns/${campaignId}/state`, { apiKey, senderAccountIds: [] });
    const http = fetchHttp(baseUrl);
    const error = await caught(client.enroll(http, { apiKey }, campaignId, [lead('cy')]));
    expect(error).toMatchObject({
      kind: 'campaign-not-ready',
      message: 'the provider campaign has no LinkedIn sender account',
    });
    // The add itself answers 400 to such a campaign, and to a pair naming another account.
    const add = (linkedInAccountId: number | null) =>
      http({
        method: 'POST',
        path: '/campaign/AddLeadsToCampaignV2',
        headers: { 'X-API-KEY': apiKey },
        body: {
          campaignId: Number(campaignId),
          accountLeadPairs: [{ linkedInAccountId, lead: { profileUrl: lead('cy').linkedinUrl } }],
        },
      });
    expect((await add(null)).status).toBe(400);
    await control('POST', `campaigns/${campaignId}/state`, { apiKey, senderAccountIds: [7100] });
    expect((await add(9999)).status).toBe(400);
    expect((await add(7100)).body).toEqual({ addedLeadsCount: 1, updatedLeadsCount: 0, failedLeadsCount: 0 });
  });

  it('reads the campaign again when the add answers 400, to tell a campaign paused meanwhile', async () => {
    const reads: string[] = [];
    const http: ProviderHttp = async (request) => {
      reads.push(request.path);
      if (request.path === '/campaign/GetById') {
        const status = reads.length === 1 ? 'IN_PROGRESS' : 'PAUSED';
        return { status: 200, retryAfterSeconds: null, body: { id: 5, status, campaignAccountIds: [1] } };
      }
      return { status: 400, retryAfterSeconds: null, body: { errorMessage: 'Campaign is not active' } };
    };
    const error = await caught(client.enroll(http, credentials, '5', [lead('dee')]));
    expect(error).toMatchObject({
      kind: 'campaign-not-ready',
      message: 'the provider campaign is not running (PAUSED)',
    });
    expect(reads).toEqual(['/campaign/GetById', '/campaign/AddLeadsToCampaignV2', '/campaign/GetById']);
  });
});

describe('enrollment in a HeyReach campaign that is paused, then started', () => {
  const CAMPAIGN = 930;
  const SEQUENCE = 9301;
  let orgId: number;
  let connectionId: number;
  let externalId: string;
  const apiKey = 'heyreach-enroll-key';

  beforeAll(async () => {
    ({ orgId } = await createOrganization('Waiting Agency'));
    await importFor(orgId, {
      campaigns: [
        {
          id: CAMPAIGN,
          name: 'Waits for HeyReach',
          sequences: [
            {
              id: SEQUENCE,
              provider: 'heyreach',
              channel: 'linkedin',
              steps: [{ type: 'linkedin_message', variants: [{ body: 'Hello' }] }],
            },
          ],
        },
      ],
    });
    await control('POST', 'workspaces', { apiKey });
    // Connecting asks the emulator (on loopback over http, which only the local stack's policy allows).
    ({ connectionId } = await connectProvider(
      orgId,
      { provider: 'heyreach', apiKey, baseUrl },
      { policy: { allowLoopback: true } },
    ));
    externalId = await newCampaign(apiKey, 'Paused at first');
    await linkSequence(orgId, { sequenceId: SEQUENCE, connectionId, provider: 'heyreach', externalId });
  });

  async function pushed(names: string[]): Promise<number[]> {
    const result = await pushContacts(
      orgId,
      CAMPAIGN,
      names.map((name) => ({
        email: `${name}@waiting.example`,
        firstName: name,
        linkedinUrl: `https://www.linkedin.com/in/waiting-${name}`,
        variables: new Map(),
      })),
      [],
      {
        skipIneligible: true,
        triggerIntake: true,
        sequenceId: SEQUENCE,
        bypassCooldownOtherSequences: false,
        bypassGlobalExcluded: false,
        takeoverUnapproved: false,
      },
    );
    expect(result.assignmentIds).toHaveLength(names.length);
    return result.assignmentIds;
  }

  const context = (maxWaitSeconds: number) => ({
    deadline: Date.now() + 60_000,
    httpFor: () => fetchHttp(baseUrl),
    campaignWait: { retrySeconds: 1, maxWaitSeconds },
  });

  it('keeps the leads pending with the reason, and enrolls them once the campaign runs', async () => {
    await control('POST', `campaigns/${externalId}/state`, { apiKey, status: 'PAUSED' });
    const assignmentIds = await pushed(['ann', 'ben']);

    const waited = await processProviderWork(
      { message: { kind: 'enroll', orgId, assignmentIds }, receiveCount: 1 },
      context(3600),
    );
    expect(waited.kind).toBe('defer');
    if (waited.kind !== 'defer') return;
    expect(waited.delaySeconds).toBe(1);
    expect(waited.message).toMatchObject({ kind: 'enroll', assignmentIds });
    expect((waited.message as { waitingSince?: string }).waitingSince).toEqual(expect.any(String));
    for (const record of await getAssignments(orgId, assignmentIds)) {
      expect(record.enrollment).toMatchObject({
        status: 'pending',
        error: 'the provider campaign is not running (PAUSED)',
      });
    }
    expect((await control('GET', `leads?apiKey=${apiKey}`)).leads).toEqual([]);

    // Started again (HeyReach's Resume), the deferred message comes back.
    await fetchHttp(baseUrl)({
      method: 'POST',
      path: '/campaign/Resume',
      query: { campaignId: externalId },
      headers: { 'X-API-KEY': apiKey },
    });
    expect(await processProviderWork({ message: waited.message, receiveCount: 1 }, context(3600))).toEqual({
      kind: 'done',
    });
    const records = await getAssignments(orgId, assignmentIds);
    expect(
      records.map((record) => [record.enrollment?.status, record.enrollment?.error, record.providerLeadId]),
    ).toEqual([
      ['enrolled', null, 'https://www.linkedin.com/in/waiting-ann'],
      ['enrolled', null, 'https://www.linkedin.com/in/waiting-ben'],
    ]);
  });

  it('records the leads failed, with the reason, once the wait is over', async () => {
    await control('POST', `campaigns/${externalId}/state`, { apiKey, status: 'PAUSED' });
    const assignmentIds = await pushed(['cat']);
    // A wait of 0 is over at once: the bound without waiting for it.
    expect(
      await processProviderWork(
        { message: { kind: 'enroll', orgId, assignmentIds }, receiveCount: 1 },
        context(0),
      ),
    ).toEqual({ kind: 'done' });
    const [record] = await getAssignments(orgId, assignmentIds);
    expect(record!.enrollment).toMatchObject({
      status: 'failed',
      error:
        'the provider campaign took no leads for 0 seconds: the provider campaign is not running (PAUSED)',
    });
  });
});
