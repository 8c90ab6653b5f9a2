import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { Provider } from '#schemas/import.ts';
import { providerConnection, sequenceHome } from '#store/item-keys.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { admin } from '../support/cli.ts';
import { type DashboardClient, dashboardClient } from '../support/dashboard.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';
import { countRequests, sentTogether } from '../support/request-counter.ts';

/**
 * A connection's campaigns at its provider and a sequence's link to one
 * (docs/providers.md, Linking sequences to provider campaigns), against each
 * provider's emulator: the listing paged through the API, the link through the
 * API, the CLI and the dashboard's picker, and each refusal.
 */

const PROVIDERS: Provider[] = ['smartlead', 'instantly', 'lemlist', 'heyreach'];
/** The fixture's sequence of each provider (lemlist's is added below). */
const SEQUENCE: Record<Provider, number> = { smartlead: 201, heyreach: 202, instantly: 203, lemlist: 204 };
/** More than one page of the API's listing (100). */
const CAMPAIGNS = 103;

let stack: LocalStack;
let localDir: string;
let orgA: number;
let orgB: number;
let keyA: string;
let readKeyA: string;
let keyB: string;
let adminA: DashboardClient;
let viewerA: DashboardClient;
const connectionOf = {} as Record<Provider, number>;
const workspaceKey = (provider: Provider) => `campaigns-${provider}-a`;
const campaignsOf = {} as Record<Provider, string[]>;

async function emulator(provider: Provider, path: string, body: unknown) {
  const response = await fetch(new URL(`/_emulator/${path}`, stack.providerApiUrls[provider]), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, text).toBe(true);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The small fixture with a lemlist sequence besides (204, in a campaign of its own). */
function documentWithLemlist() {
  const document = smallDocument() as unknown as { campaigns: Record<string, unknown>[] };
  document.campaigns.push({
    id: 103,
    name: 'Agencies',
    signals: [],
    created_at: '2026-04-03T09:00:00.000Z',
    sequences: [
      {
        id: 204,
        provider: 'lemlist',
        channel: 'email',
        steps: [{ type: 'email', variants: [{ subject: 'Hello', body: 'Hi' }] }],
      },
    ],
  });
  return document;
}

beforeAll(async () => {
  localDir = mkdtempSync(join(tmpdir(), 'provider-campaigns-'));
  stack = await startTestStack({ endpointsDir: localDir, openIdProvider: true });
  orgA = (await createOrganization('Campaigns A')).orgId;
  orgB = (await createOrganization('Campaigns B')).orgId;
  await importFor(orgA, documentWithLemlist());
  await importFor(orgB, smallDocument());
  keyA = (await createApiKey(orgA)).apiKey;
  readKeyA = (await createApiKey(orgA, { scope: 'read' })).apiKey;
  keyB = (await createApiKey(orgB)).apiKey;
  for (const provider of PROVIDERS) {
    const connected = await apiClient(stack, keyA).post(
      '/provider-connections',
      await emulatedConnection(stack, provider, workspaceKey(provider)),
    );
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    connectionOf[provider] = connected.body.id as number;
    // Every campaign is made before the first listing: the listing keeps a provider's page a minute.
    const ids: string[] = [];
    for (let index = 0; index < CAMPAIGNS; index += 1) {
      const made = await emulator(provider, 'campaigns', {
        apiKey: workspaceKey(provider),
        name: `Campaign ${String(index).padStart(3, '0')}`,
      });
      ids.push(String(made.id));
    }
    campaignsOf[provider] = ids;
  }
  adminA = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'admin' });
  viewerA = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'viewer' });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(localDir, { recursive: true, force: true });
});

const api = (key = keyA) => apiClient(stack, key);
const linkPath = (sequenceId: number) => `/sequences/${sequenceId}/provider-link`;

describe('a connection’s campaigns', () => {
  it.each(PROVIDERS)(
    '%s: pages through every campaign of the provider once, in its order',
    async (provider) => {
      const seen: { id: string; name: string; status: string; accepts_leads: boolean }[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const page = await api(readKeyA).get(
          `/provider-connections/${connectionOf[provider]}/campaigns${query}`,
        );
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(100);
        seen.push(...page.body.data);
        cursor = page.body.next;
        pages += 1;
      } while (cursor !== null && pages < 10);
      expect(cursor).toBeNull();
      expect(pages).toBeGreaterThanOrEqual(2);
      const ids = seen.map((campaign) => campaign.id);
      // Smartlead lists its newest campaign first; the others page oldest first.
      const made = campaignsOf[provider];
      expect(ids).toEqual(provider === 'smartlead' ? [...made].reverse() : made);
      expect(seen[0]).toEqual({
        id: expect.any(String),
        name: expect.stringMatching(/^Campaign \d{3}$/),
        status: expect.any(String),
        accepts_leads: true,
      });
    },
  );

  it('refuses a cursor no page gave, another organization’s connection and an unknown one', async () => {
    const at = `/provider-connections/${connectionOf.lemlist}/campaigns`;
    const forged = Buffer.from(JSON.stringify({ p: 'x', o: 3 })).toString('base64url');
    for (const cursor of ['not a cursor', forged, 'e30']) {
      const answer = await api().get(`${at}?cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(400);
      expect(answer.body.message).toBe(
        "Invalid query parameter 'cursor': must be the next of a previous page",
      );
    }
    const other = await api(keyB).get(at);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ message: `Provider connection ${connectionOf.lemlist} not found` });
    expect((await api().get('/provider-connections/999999/campaigns')).status).toBe(404);
  });
});

describe('a sequence’s provider link', () => {
  it.each(PROVIDERS)('%s: links, reads, links again the same, and unlinks', async (provider) => {
    const sequenceId = SEQUENCE[provider];
    const campaign = campaignsOf[provider][1]!;
    const body = { connection_id: connectionOf[provider], provider_campaign_id: campaign };
    const expected = {
      sequence_id: sequenceId,
      campaign_id: provider === 'lemlist' ? 103 : provider === 'instantly' ? 102 : 101,
      connection_id: connectionOf[provider],
      provider,
      provider_campaign_id: campaign,
    };

    const linked = await api().put(linkPath(sequenceId), body);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toEqual(expected);
    expect((await api(readKeyA).get(linkPath(sequenceId))).body).toEqual(expected);
    const again = await api().put(linkPath(sequenceId), body);
    expect(again.body).toEqual(expected);
    // Another campaign replaces the link.
    const replaced = await api().put(linkPath(sequenceId), {
      ...body,
      provider_campaign_id: campaignsOf[provider][2],
    });
    expect(replaced.body).toEqual({ ...expected, provider_campaign_id: campaignsOf[provider][2] });

    const removed = await api().delete(linkPath(sequenceId));
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ...expected, provider_campaign_id: campaignsOf[provider][2] });
    const gone = await api().get(linkPath(sequenceId));
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({
      message: `Sequence ${sequenceId} is not linked to a provider campaign`,
    });
    expect((await api().delete(linkPath(sequenceId))).status).toBe(404);
  });

  it('reads the connection with the sequence’s home, then the sequence’s campaign alone, and links on that read', async () => {
    const sequenceId = SEQUENCE.lemlist;
    const { result: linked, calls } = await countRequests(() =>
      api().put(linkPath(sequenceId), {
        connection_id: connectionOf.lemlist,
        provider_campaign_id: campaignsOf.lemlist[3],
      }),
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const read = (key: Record<string, string>) =>
      calls.find(
        (call) => call.operation === 'GetItem' && JSON.stringify(call.input.Key) === JSON.stringify(key),
      );
    const connection = read(providerConnection(orgA, connectionOf.lemlist));
    const home = read(sequenceHome(orgA, sequenceId));
    expect(connection).toBeDefined();
    expect(home).toBeDefined();
    expect(sentTogether(connection!, home!)).toBe(true);
    // One campaign's item and shards, never the organization's every campaign.
    const campaigns = calls.filter((call) => call.operation === 'Query');
    expect(campaigns).toHaveLength(1);
    const values = campaigns[0]!.input.ExpressionAttributeValues as Record<string, unknown>;
    expect(values[':prefix']).toMatch(/^CAMPAIGN#\d+$/);
    expect(calls.filter((call) => call.operation === 'TransactWriteItems')).toHaveLength(1);
    expect((await api().delete(linkPath(sequenceId))).status).toBe(200);
  });

  it('names a missing connection before a missing sequence, though both are read at once', async () => {
    const answer = await api().put(linkPath(999999), { connection_id: 999999, provider_campaign_id: '1' });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('Provider connection 999999 not found');
  });

  it('refuses another provider’s sequence, a campaign the provider does not have, and unknown ids', async () => {
    const smartlead = connectionOf.smartlead;
    const wrongProvider = await api().put(linkPath(203), {
      connection_id: smartlead,
      provider_campaign_id: campaignsOf.smartlead[0],
    });
    expect(wrongProvider.status).toBe(400);
    expect(wrongProvider.body.message).toBe('Sequence 203 is a instantly sequence, not smartlead');

    const missing = await api().put(linkPath(201), {
      connection_id: smartlead,
      provider_campaign_id: '999999',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(
      `Invalid body field 'provider_campaign_id': Smartlead has no campaign "999999" on connection ${smartlead}`,
    );

    const noConnection = await api().put(linkPath(201), { connection_id: 999999, provider_campaign_id: '1' });
    expect(noConnection.status).toBe(404);
    expect(noConnection.body.message).toBe('Provider connection 999999 not found');
    const noSequence = await api().put(linkPath(999999), {
      connection_id: smartlead,
      provider_campaign_id: campaignsOf.smartlead[0],
    });
    expect(noSequence.status).toBe(404);
    expect(noSequence.body.message).toBe('Sequence 999999 not found');
    expect((await api().get(linkPath(999999))).status).toBe(404);
  });

  it('hides another organization’s sequences and connections (404)', async () => {
    // Sequence 204 is A's alone; A's connection is not B's.
    const otherSequence = await api(keyB).put(linkPath(204), {
      connection_id: connectionOf.lemlist,
      provider_campaign_id: campaignsOf.lemlist[0],
    });
    expect(otherSequence.status).toBe(404);
    const otherConnection = await api(keyB).put(linkPath(201), {
      connection_id: connectionOf.smartlead,
      provider_campaign_id: campaignsOf.smartlead[0],
    });
    expect(otherConnection.status).toBe(404);
    expect(otherConnection.body.message).toBe(`Provider connection ${connectionOf.smartlead} not found`);
    expect((await api(keyB).get(linkPath(204))).status).toBe(404);
    expect((await api(keyB).delete(linkPath(204))).status).toBe(404);
  });

  it('names every problem of a bad body (400), and a read key may not link (403)', async () => {
    const bad = await api().put(linkPath(201), { connection_id: 0, provider_campaign_id: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      'body.connection_id',
      'body.provider_campaign_id',
    ]);
    const empty = await api().put(linkPath(201), {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toHaveLength(2);
    const long = await api().put(linkPath(201), {
      connection_id: connectionOf.smartlead,
      provider_campaign_id: 'x'.repeat(201),
    });
    expect(long.body.message).toContain('must be at most 200 characters');
    const read = await api(readKeyA).put(linkPath(201), {
      connection_id: connectionOf.smartlead,
      provider_campaign_id: campaignsOf.smartlead[0],
    });
    expect(read.status).toBe(403);
    expect((await api(readKeyA).delete(linkPath(201))).status).toBe(403);
  });

  it('links a HeyReach campaign that is not running, with a warning', async () => {
    const paused = campaignsOf.heyreach[5]!;
    await emulator('heyreach', `campaigns/${paused}/state`, {
      apiKey: workspaceKey('heyreach'),
      status: 'PAUSED',
    });
    const linked = await api().put(linkPath(202), {
      connection_id: connectionOf.heyreach,
      provider_campaign_id: paused,
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ provider_campaign_id: paused });
    expect(linked.body.warning).toBe(
      `HeyReach campaign ${paused} takes no leads now (paused): leads enrolled in it wait until it does`,
    );
    // Reading the link asks no provider, so it carries no warning.
    expect((await api().get(linkPath(202))).body).not.toHaveProperty('warning');
    await api().delete(linkPath(202));
  });
});

describe('outreach-admin', () => {
  const run = (...args: string[]) => admin(localDir, args);

  it('lists the campaigns and links and unlinks a sequence, with --json as the API answers', async () => {
    const listed = await run(
      'provider',
      'campaigns',
      '--org',
      String(orgA),
      '--connection',
      String(connectionOf.instantly),
      '--json',
    );
    expect(listed.code, listed.stderr).toBe(0);
    const page = await api().get(`/provider-connections/${connectionOf.instantly}/campaigns`);
    expect(JSON.parse(listed.stdout)).toEqual(page.body);

    const campaign = campaignsOf.instantly[3]!;
    /** `sequence link` of Instantly's sequence 203 to `externalId`. */
    const link = (externalId: string, ...more: string[]) =>
      run(
        'sequence',
        'link',
        '--org',
        String(orgA),
        '--sequence',
        '203',
        '--connection',
        String(connectionOf.instantly),
        '--external-id',
        externalId,
        ...more,
      );
    const linked = await link(campaign, '--json');
    expect(linked.code, linked.stderr).toBe(0);
    expect(JSON.parse(linked.stdout)).toEqual((await api().get(linkPath(203))).body);
    expect(JSON.parse(linked.stdout)).toMatchObject({ sequence_id: 203, provider_campaign_id: campaign });

    const refused = await link('not-there');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Instantly has no campaign "not-there"');

    const unlinked = await run('sequence', 'unlink', '--org', String(orgA), '--sequence', '203', '--json');
    expect(unlinked.code, unlinked.stderr).toBe(0);
    expect(JSON.parse(unlinked.stdout)).toMatchObject({ sequence_id: 203, provider_campaign_id: campaign });
    expect((await api().get(linkPath(203))).status).toBe(404);
  });
});

describe('the dashboard’s picker', () => {
  it('lets an admin link a sequence to one of the provider’s campaigns, and shows a viewer no form', async () => {
    const page = `/dashboard/providers/${connectionOf.lemlist}`;
    const shown = await adminA.get(page);
    expect(shown.status).toBe(200);
    const campaign = campaignsOf.lemlist[7]!;
    expect(shown.text).toContain(`<option value="${campaign}">`);
    expect(shown.text).toContain('name="provider_campaign_id"');

    const posted = await adminA.post(page, {
      action: 'link',
      sequence_id: '204',
      provider_campaign_id: campaign,
    });
    expect(posted.status).toBe(303);
    expect((await api().get(linkPath(204))).body).toMatchObject({
      sequence_id: 204,
      connection_id: connectionOf.lemlist,
      provider_campaign_id: campaign,
    });
    expect((await adminA.get(page)).text).toContain(`<option value="${campaign}" selected>`);

    const asViewer = await viewerA.get(page);
    expect(asViewer.status).toBe(200);
    expect(asViewer.text).toContain(campaign);
    expect(asViewer.text).not.toContain('name="provider_campaign_id"');
    const refused = await viewerA.post(page, { action: 'unlink', sequence_id: '204' });
    expect(refused.status).toBe(403);
    expect((await api().get(linkPath(204))).status).toBe(200);

    const unlinked = await adminA.post(page, { action: 'unlink', sequence_id: '204' });
    expect(unlinked.status).toBe(303);
    expect((await api().get(linkPath(204))).status).toBe(404);
  });
});
