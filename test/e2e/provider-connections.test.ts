import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION } from '#domain/provider-connections.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { Provider } from '#schemas/import.ts';
import { keys } from '#store/keys.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { providerFixture, withTarget } from '../fixtures/providers/index.ts';
import { apiClient, send } from '../support/api-client.ts';
import { admin } from '../support/cli.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';
import { settle } from '../support/settle.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Provider connections over HTTP and through the CLI, and the inbound
 * endpoint's checks: the API key sealed and never shown, the webhook URL's
 * token as the credential (rotated, deleted, another organization's), and
 * bodies refused before anything is queued.
 */

let stack: LocalStack;
let receiver: WebhookReceiver;
let orgId: number;
let apiKey: string;
const localDir = mkdtempSync(join(tmpdir(), 'provider-connections-'));

beforeAll(async () => {
  stack = await startTestStack({ endpointsDir: localDir });
  receiver = await startWebhookReceiver();
  ({ orgId } = await createOrganization('Agency Inc'));
  ({ apiKey } = await createApiKey(orgId));
});
afterAll(async () => {
  await stack.stop();
  await receiver.stop();
});

const api = () => apiClient(stack, apiKey);

/** Posts a body to a webhook URL as a provider does. */
const deliver = (webhookUrl: string, body: string) =>
  send('', {
    method: 'POST',
    url: webhookUrl,
    headers: { 'content-type': 'application/json' },
    body,
  });

/** Connects to a workspace with that key at the stack's emulator of the provider (connecting asks it). */
async function connect(provider: Provider = 'smartlead', apiKeyOfProvider = 'sl_live_1234567890') {
  const created = await api().post(
    '/provider-connections',
    await emulatedConnection(stack, provider, apiKeyOfProvider),
  );
  expect(created.status).toBe(200);
  return created.body as { id: number; provider: string; webhook_url: string; created_at: string };
}

async function unmatchedOf(connectionId: number) {
  const page = await api().get(`/provider-connections/${connectionId}/unmatched`);
  expect(page.status).toBe(200);
  return page.body.data as { reason: string; event_type: string | null }[];
}

describe('provider connections', () => {
  it('connects an account: the webhook URL under this API, the key never shown and stored sealed', async () => {
    const connection = await connect('instantly', 'inst-secret-key-abcd');
    expect(connection).toEqual({
      id: expect.any(Number),
      provider: 'instantly',
      webhook_url: expect.stringMatching(
        new RegExp(`^${stack.apiUrl}/provider-webhooks/${orgId}/${connection.id}/[A-Za-z0-9_-]{43}$`),
      ),
      created_at: expect.any(String),
      base_url: stack.providerApiUrls.instantly,
      status: 'ok',
      last_success_at: expect.any(String),
      last_error: null,
    });
    expect(JSON.stringify(connection)).not.toContain('inst-secret-key');
    const { Item } = await dynamo.send(
      new GetCommand({ TableName: tableName(), Key: keys.providerConnection(orgId, connection.id) }),
    );
    expect(JSON.stringify(Item)).not.toContain('inst-secret-key');
    expect(Item?.apiKey).toMatchObject({ wrappedBy: 'local' });
    // Reads show the same URL, for pasting again.
    expect((await api().get(`/provider-connections/${connection.id}`)).body).toEqual(connection);
    const listed = (await api().get('/provider-connections')).body.connections as { id: number }[];
    expect(listed).toContainEqual(connection);
  });

  it('allows several connections per provider', async () => {
    const first = await connect('lemlist', 'lem-one');
    const second = await connect('lemlist', 'lem-two');
    expect(first.id).not.toBe(second.id);
    expect(first.webhook_url).not.toBe(second.webhook_url);
  });

  it('refuses an unknown provider, an empty key and a private base URL with 400', async () => {
    expect((await api().post('/provider-connections', { provider: 'outreachio', api_key: 'k' })).status).toBe(
      400,
    );
    expect((await api().post('/provider-connections', { provider: 'smartlead', api_key: '  ' })).status).toBe(
      400,
    );
    const refused = await api().post('/provider-connections', {
      provider: 'smartlead',
      api_key: 'k',
      base_url: 'https://10.0.0.1/api',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/base_url/);
  });

  it('rotates the webhook URL: the old one is 401 at once, the new one accepted', async () => {
    const connection = await connect();
    const rotated = await api().post(`/provider-connections/${connection.id}/rotate-webhook-url`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook_url).not.toBe(connection.webhook_url);
    expect(await deliver(connection.webhook_url, '{"event_type":"EMAIL_SENT"}')).toMatchObject({
      status: 401,
    });
    expect(await deliver(rotated.body.webhook_url, '{"event_type":"EXAMPLE"}')).toMatchObject({
      status: 200,
    });
  });

  it('disconnects: the URL is 401 and the connection 404 afterwards', async () => {
    const connection = await connect();
    expect((await api().delete(`/provider-connections/${connection.id}`)).body).toEqual({ success: true });
    expect(await deliver(connection.webhook_url, '{}')).toMatchObject({ status: 401 });
    expect((await api().get(`/provider-connections/${connection.id}`)).status).toBe(404);
    expect((await api().delete(`/provider-connections/${connection.id}`)).status).toBe(404);
  });

  it(`holds ${MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION} connections per organization (409 beyond)`, async () => {
    const { orgId: full } = await createOrganization('Full Agency');
    const { apiKey: fullKey } = await createApiKey(full);
    const client = apiClient(stack, fullKey);
    const created = await Promise.all(
      Array.from({ length: MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION + 3 }, async (_, index) =>
        client.post('/provider-connections', await emulatedConnection(stack, 'heyreach', `hr-${index}`)),
      ),
    );
    expect(created.filter((answer) => answer.status === 200)).toHaveLength(
      MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION,
    );
    expect(created.filter((answer) => answer.status === 409)).toHaveLength(3);
  });
});

describe('the inbound endpoint', () => {
  it('answers 401 and writes nothing for an unknown connection, a wrong token or a malformed URL', async () => {
    const connection = await connect();
    const base = connection.webhook_url.replace(/\/[^/]+$/, '');
    for (const url of [
      `${base}/${'A'.repeat(43)}`,
      `${base}/x`,
      connection.webhook_url.replace(`/${connection.id}/`, `/${connection.id + 100_000}/`),
      connection.webhook_url.replace(`/${orgId}/`, `/${orgId + 100_000}/`),
      connection.webhook_url.replace(`/${orgId}/`, '/abc/'),
    ]) {
      const answer = await deliver(url, '{"event_type":"EMAIL_OPEN"}');
      expect(answer.status, url).toBe(401);
      expect(JSON.parse(answer.text)).toMatchObject({ message: 'Unknown connection or wrong token' });
    }
    await settle(stack, receiver);
    expect(await unmatchedOf(connection.id)).toEqual([]);
  });

  it('refuses another organization’s token on this organization’s connection', async () => {
    const mine = await connect();
    const { orgId: otherOrg } = await createOrganization('Other Agency');
    const { apiKey: otherKey } = await createApiKey(otherOrg);
    const theirs = await apiClient(stack, otherKey).post(
      '/provider-connections',
      await emulatedConnection(stack, 'smartlead', 'theirs'),
    );
    const theirToken = (theirs.body.webhook_url as string).split('/').at(-1);
    const forged = mine.webhook_url.replace(/[^/]+$/, theirToken!);
    expect((await deliver(forged, '{"event_type":"EMAIL_OPEN"}')).status).toBe(401);
    await settle(stack, receiver);
    expect(await unmatchedOf(mine.id)).toEqual([]);
  });

  it('checks Smartlead’s secret_key against the token when the payload carries one', async () => {
    const connection = await connect('smartlead');
    const token = connection.webhook_url.split('/').at(-1)!;
    const wrong = await deliver(
      connection.webhook_url,
      JSON.stringify({ secret_key: 'nope', event_type: 'X' }),
    );
    expect(wrong.status).toBe(401);
    const right = await deliver(
      connection.webhook_url,
      JSON.stringify({ secret_key: token, event_type: 'X' }),
    );
    expect(right.status).toBe(200);
  });

  it('answers 400 for a body that is not a JSON object, and 413 over 256 KB', async () => {
    const connection = await connect('lemlist');
    for (const body of ['{"type": ', 'not json', '"a string"', '42', 'null']) {
      const answer = await deliver(connection.webhook_url, body);
      expect(answer.status, body).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ message: expect.any(String) });
    }
    const big = JSON.stringify({ type: 'emailsOpened', padding: 'x'.repeat(256_000) });
    expect((await deliver(connection.webhook_url, big)).status).toBe(413);
    const justUnder = JSON.stringify({ type: 'EXAMPLE', padding: 'x'.repeat(255_900) });
    expect((await deliver(connection.webhook_url, justUnder)).status).toBe(200);
    await settle(stack, receiver);
    // Only the accepted one is kept, as an event type the service does not record.
    expect(await unmatchedOf(connection.id)).toEqual([
      expect.objectContaining({ event_type: 'EXAMPLE', reason: expect.stringMatching(/EXAMPLE/) }),
    ]);
  });

  it('keeps what it cannot record as unmatched, with the reason, newest first, page by page', async () => {
    const connection = await connect('instantly');
    for (const type of ['first_unknown', 'second_unknown', 'third_unknown']) {
      expect((await deliver(connection.webhook_url, JSON.stringify({ event_type: type }))).status).toBe(200);
    }
    await settle(stack, receiver);
    const first = await api().get(`/provider-connections/${connection.id}/unmatched?take=2`);
    expect(first.body.data.map((event: { event_type: string }) => event.event_type)).toEqual([
      'third_unknown',
      'second_unknown',
    ]);
    expect(first.body.next).toEqual(expect.any(String));
    const second = await api().get(
      `/provider-connections/${connection.id}/unmatched?take=2&cursor=${encodeURIComponent(first.body.next)}`,
    );
    expect(second.body.data.map((event: { event_type: string }) => event.event_type)).toEqual([
      'first_unknown',
    ]);
    expect((await api().get(`/provider-connections/${connection.id}/unmatched?cursor=bogus`)).status).toBe(
      400,
    );
  });
});

describe('outreach-admin provider …', () => {
  it('connects, lists, gets, rotates, shows unmatched and disconnects, with --json', async () => {
    const account = await emulatedConnection(stack, 'heyreach', 'hr-cli-key-9876');
    const connected = await admin(localDir, [
      'provider',
      'connect',
      '--org',
      String(orgId),
      '--provider',
      'heyreach',
      '--api-key',
      account.api_key,
      '--base-url',
      account.base_url,
      '--json',
    ]);
    expect(connected.code, connected.stderr).toBe(0);
    const created = JSON.parse(connected.stdout) as {
      connectionId: number;
      provider: string;
      webhookUrl: string;
    };
    expect(created).toEqual({
      connectionId: expect.any(Number),
      provider: 'heyreach',
      webhookUrl: expect.stringContaining(`${stack.apiUrl}/provider-webhooks/${orgId}/`),
    });
    expect(connected.stdout).not.toContain('hr-cli-key');
    // The CLI's URL is the API's: the stack accepts it.
    expect((await deliver(created.webhookUrl, '{"event":"UNKNOWN_EVENT"}')).status).toBe(200);

    const ofConnection = ['--org', String(orgId), '--connection', String(created.connectionId), '--json'];
    const got = JSON.parse((await admin(localDir, ['provider', 'get', ...ofConnection])).stdout);
    expect(got).toEqual({
      ...created,
      createdAt: expect.any(String),
      status: 'ok',
      lastSuccessAt: expect.any(String),
      lastError: null,
    });
    const listed = JSON.parse(
      (await admin(localDir, ['provider', 'list', '--org', String(orgId), '--json'])).stdout,
    );
    expect(listed.connections).toContainEqual(got);

    await settle(stack, receiver);
    const unmatched = JSON.parse((await admin(localDir, ['provider', 'unmatched', ...ofConnection])).stdout);
    expect(unmatched.data).toEqual([expect.objectContaining({ event_type: 'UNKNOWN_EVENT' })]);

    const rotated = JSON.parse(
      (await admin(localDir, ['provider', 'rotate-webhook-url', ...ofConnection])).stdout,
    );
    expect(rotated.webhookUrl).not.toBe(created.webhookUrl);
    expect((await deliver(created.webhookUrl, '{}')).status).toBe(401);

    const disconnected = await admin(localDir, ['provider', 'disconnect', ...ofConnection]);
    expect(JSON.parse(disconnected.stdout)).toEqual({
      orgId,
      connectionId: created.connectionId,
      deleted: true,
    });
    const gone = await admin(localDir, ['provider', 'get', ...ofConnection]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/not found/);
  });

  it('refuses bad usage with exit 2 and an unknown organization with exit 1', async () => {
    expect((await admin(localDir, ['provider', 'connect', '--org', String(orgId)])).code).toBe(2);
    const badProvider = await admin(localDir, [
      'provider',
      'connect',
      '--org',
      String(orgId),
      '--provider',
      'mailchimp',
      '--api-key',
      'k',
    ]);
    expect(badProvider.code).toBe(2);
    const unknownOrg = await admin(localDir, [
      'provider',
      'connect',
      '--org',
      '999999',
      '--provider',
      'smartlead',
      '--api-key',
      'k',
    ]);
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stderr).toMatch(/Organization 999999 not found/);
  });
});

describe('outreach-admin sequence link', () => {
  it('names the provider campaign behind a sequence, so that campaign’s events find their assignment', async () => {
    const { orgId: linkedOrg } = await createOrganization('Linked Agency');
    const { apiKey: linkedKey } = await createApiKey(linkedOrg);
    await importFor(linkedOrg, smallDocument());
    const client = apiClient(stack, linkedKey);
    const connection = (
      await client.post('/provider-connections', await emulatedConnection(stack, 'smartlead', 'k'))
    ).body as { id: number; webhook_url: string };
    const link = (...args: string[]) =>
      admin(localDir, [
        'sequence',
        'link',
        '--org',
        String(linkedOrg),
        '--connection',
        String(connection.id),
        ...args,
      ]);

    // Linking asks the provider for the campaign: the workspace has campaign 4242.
    const made = await fetch(new URL('/_emulator/campaigns', stack.providerApiUrls.smartlead), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'k', id: 4242 }),
    });
    expect(made.ok).toBe(true);
    // smallDocument: sequence 201 is Smartlead's (assignment 501, ann@acme.com), 202 HeyReach's.
    const linked = await link('--sequence', '201', '--external-id', '4242', '--json');
    expect(linked.code, linked.stderr).toBe(0);
    // The API's answer (PUT /sequences/201/provider-link).
    expect(JSON.parse(linked.stdout)).toEqual({
      sequence_id: 201,
      campaign_id: 101,
      connection_id: connection.id,
      provider: 'smartlead',
      provider_campaign_id: '4242',
    });
    const mismatch = await link('--sequence', '202', '--external-id', '4243');
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toMatch(/heyreach/);
    const unknown = await link('--sequence', '999', '--external-id', '4244');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/999/);
    // The campaign resource does not show the link.
    expect(JSON.stringify((await client.get('/campaigns/101')).body)).not.toContain('4242');

    const before = (await client.get('/campaigns/101/messages?take=100')).body.data.length as number;
    const reply = withTarget('smartlead', providerFixture('smartlead/EMAIL_REPLY.json').payload, {
      campaignExternalId: '4242',
      email: 'ann@acme.com',
      secretKey: null,
    });
    expect((await deliver(connection.webhook_url, JSON.stringify(reply))).status).toBe(200);
    await settle(stack, receiver);
    expect(await unmatchedOfClient(client, connection.id)).toEqual([]);
    const messages = (await client.get('/campaigns/101/messages?take=100')).body.data as {
      assignment_id: number;
      type: string;
    }[];
    expect(messages).toHaveLength(before + 1);
    expect(
      messages.filter((message) => message.assignment_id === 501 && message.type === 'received').length,
    ).toBe(2);
  });
});

async function unmatchedOfClient(client: ReturnType<typeof apiClient>, connectionId: number) {
  return (await client.get(`/provider-connections/${connectionId}/unmatched`)).body.data as unknown[];
}
