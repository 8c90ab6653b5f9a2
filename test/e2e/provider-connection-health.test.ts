import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { apiKeyContext } from '#domain/provider-connections.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { sealSecret } from '#platform/secrets.ts';
import { keys } from '#store/keys.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { admin } from '../support/cli.ts';
import { dashboardClient } from '../support/dashboard.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { closedPort } from '../support/provider-emulator-http.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';

/**
 * A connection's health over HTTP, in the dashboard and through the CLI
 * (docs/providers.md, Connection health): the fields on every read (a read key
 * sees them), `POST /provider-connections/{id}/check` with an accepted key, a
 * key the provider no longer knows and a provider that cannot be reached, the
 * dashboard's badge and "Check now" (admins only), and `provider check`.
 */

let stack: LocalStack;
let orgId: number;
let writeKey: string;
let readKey: string;
const localDir = mkdtempSync(join(tmpdir(), 'provider-connection-health-'));

beforeAll(async () => {
  stack = await startTestStack({ endpointsDir: localDir });
  ({ orgId } = await createOrganization('Health Agency'));
  ({ apiKey: writeKey } = await createApiKey(orgId));
  ({ apiKey: readKey } = await createApiKey(orgId, { scope: 'read' }));
});
afterAll(async () => {
  await stack.stop();
});

const api = (key = writeKey) => apiClient(stack, key);

async function connected(): Promise<{ id: number; body: Record<string, unknown>; apiKey: string }> {
  const account = await emulatedConnection(stack, 'instantly');
  const made = await api().post('/provider-connections', account);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return { id: made.body.id as number, body: made.body, apiKey: account.api_key };
}

/** Stores `key` as the connection's API key: by default one the provider does not know (revoked there since it was verified). */
async function revokeAtProvider(id: number, key = 'revoked-at-instantly-0000', org = orgId) {
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.providerConnection(org, id),
      UpdateExpression: 'SET apiKey = :sealed',
      ExpressionAttributeValues: { ':sealed': await sealSecret(key, apiKeyContext(org, id)) },
    }),
  );
}

describe('the health fields', () => {
  it('are on the connection made, and on every read, a read key’s included', async () => {
    const before = new Date().toISOString();
    const { id, body } = await connected();
    expect(body).toMatchObject({
      base_url: stack.providerApiUrls.instantly,
      status: 'ok',
      last_error: null,
    });
    expect((body.last_success_at as string) >= before).toBe(true);
    const health = {
      base_url: body.base_url,
      status: body.status,
      last_success_at: body.last_success_at,
      last_error: null,
    };
    const read = await api(readKey).get(`/provider-connections/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id, provider: 'instantly', created_at: body.created_at, ...health });
    const listed = await api(readKey).get('/provider-connections');
    expect(listed.body.connections).toContainEqual(read.body);
    expect((await api().get(`/provider-connections/${id}`)).body).toEqual(body);
  });
});

describe('POST /provider-connections/{id}/check', () => {
  it('answers the connection ok, its last success now, when the provider accepts the key', async () => {
    const { id, body } = await connected();
    const checked = await api().post(`/provider-connections/${id}/check`);
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toEqual({
      ...body,
      last_success_at: expect.any(String),
    });
    expect(checked.body.last_success_at > (body.last_success_at as string)).toBe(true);
  });

  it('answers 200 with the connection failing, and why, when the provider refuses the stored key', async () => {
    const { id } = await connected();
    await revokeAtProvider(id);
    const checked = await api().post(`/provider-connections/${id}/check`);
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toMatchObject({
      status: 'failing',
      last_error: { message: 'Instantly refused this API key (401)', at: expect.any(String) },
    });
    expect(JSON.stringify(checked.body)).not.toContain('revoked-at-instantly');
    // Kept: a read key reads it so.
    expect((await api(readKey).get(`/provider-connections/${id}`)).body).toMatchObject({
      status: 'failing',
      last_error: checked.body.last_error,
    });
  });

  it('answers 502 and marks the connection failing when the provider cannot be reached', async () => {
    const { id } = await connected();
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.providerConnection(orgId, id),
        UpdateExpression: 'SET baseUrl = :url',
        ExpressionAttributeValues: { ':url': `http://127.0.0.1:${await closedPort()}` },
      }),
    );
    const checked = await api().post(`/provider-connections/${id}/check`);
    expect(checked.status).toBe(502);
    expect(checked.body.message).toMatch(/^Instantly could not be reached/);
    expect((await api().get(`/provider-connections/${id}`)).body).toMatchObject({
      status: 'failing',
      last_error: { message: 'Instantly could not be reached', at: expect.any(String) },
    });
  });

  it('is 404 for another organization’s connection or an unknown one, and 403 to a read key', async () => {
    const { orgId: otherOrg } = await createOrganization('Other Health Agency');
    const { apiKey: otherKey } = await createApiKey(otherOrg);
    const theirs = await apiClient(stack, otherKey).post(
      '/provider-connections',
      await emulatedConnection(stack, 'instantly'),
    );
    expect(theirs.status).toBe(200);
    expect((await api().post(`/provider-connections/${theirs.body.id}/check`)).status).toBe(404);
    expect((await api().post('/provider-connections/99999999/check')).status).toBe(404);
    const { id } = await connected();
    const refused = await api(readKey).post(`/provider-connections/${id}/check`);
    expect(refused.status).toBe(403);
  });
});

describe('the campaign listing and the link’s campaign lookup', () => {
  it('turn the connection failing when the provider refuses the stored key (409)', async () => {
    const { id } = await connected();
    await revokeAtProvider(id);
    const listed = await api(readKey).get(`/provider-connections/${id}/campaigns`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(409);
    expect((await api(readKey).get(`/provider-connections/${id}`)).body).toMatchObject({
      status: 'failing',
      last_error: { message: 'Instantly refused this API key (401)', at: expect.any(String) },
    });

    // The link's lookup of the campaign is judged the same, in an organization with an Instantly sequence (203).
    const { orgId: linking } = await createOrganization('Linking Health Agency');
    await importFor(linking, smallDocument());
    const linkingApi = apiClient(stack, (await createApiKey(linking)).apiKey);
    const made = await linkingApi.post('/provider-connections', await emulatedConnection(stack, 'instantly'));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await revokeAtProvider(made.body.id as number, 'revoked-at-instantly-0000', linking);
    const linked = await linkingApi.put('/sequences/203/provider-link', {
      connection_id: made.body.id,
      provider_campaign_id: 'any-campaign',
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(409);
    expect((await linkingApi.get(`/provider-connections/${made.body.id}`)).body).toMatchObject({
      status: 'failing',
      last_error: { message: 'Instantly refused this API key (401)', at: expect.any(String) },
    });
  });

  it('turns a failing connection ok again when the provider answers the listing', async () => {
    const { id, apiKey } = await connected();
    await revokeAtProvider(id);
    expect((await api().post(`/provider-connections/${id}/check`)).body).toMatchObject({ status: 'failing' });
    // The provider's key again (as if it had been restored there): the listing is accepted.
    await revokeAtProvider(id, apiKey);
    const listed = await api(readKey).get(`/provider-connections/${id}/campaigns`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect((await api(readKey).get(`/provider-connections/${id}`)).body).toMatchObject({
      status: 'ok',
      last_error: { message: 'Instantly refused this API key (401)' },
    });
  });
});

describe('the dashboard', () => {
  it('shows a failing badge with the error and its time, and a Check now for admins only', async () => {
    const { id } = await connected();
    await revokeAtProvider(id);
    const adminPage = await dashboardClient(stack.apiUrl, { orgId, role: 'admin' });
    const checked = await adminPage.post(`/dashboard/providers/${id}`, { action: 'check' });
    expect(checked.status, checked.text.slice(0, 300)).toBe(303);
    const page = await adminPage.get(`/dashboard/providers/${id}`);
    expect(page.text).toContain(
      '<span class="badge failing">failing</span> Instantly refused this API key (401)',
    );
    expect(page.text).toMatch(
      /<input type="hidden" name="action" value="check"><button type="submit">Check now<\/button>/,
    );
    const list = await adminPage.get('/dashboard/providers');
    expect(list.text).toContain('<span class="badge failing">failing</span>');

    const viewer = await dashboardClient(stack.apiUrl, { orgId, role: 'viewer' });
    const viewed = await viewer.get(`/dashboard/providers/${id}`);
    expect(viewed.text).toContain('<span class="badge failing">failing</span>');
    expect(viewed.text).not.toContain('Check now');
    expect((await viewer.post(`/dashboard/providers/${id}`, { action: 'check' })).status).toBe(403);
  });
});

describe('outreach-admin provider check', () => {
  it('checks the connection and prints its health, with --json', async () => {
    const { id } = await connected();
    const check = (...more: string[]) =>
      admin(localDir, ['provider', 'check', '--org', String(orgId), '--connection', String(id), ...more]);
    const ok = await check('--json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({
      connectionId: id,
      provider: 'instantly',
      webhookUrl: expect.stringContaining(`/provider-webhooks/${orgId}/${id}/`),
      createdAt: expect.any(String),
      status: 'ok',
      lastSuccessAt: expect.any(String),
      lastError: null,
    });
    await revokeAtProvider(id);
    const failing = await check();
    expect(failing.code, failing.stderr).toBe(0);
    expect(failing.stdout).toContain(
      `Connection ${id} (instantly) is failing: Instantly refused this API key (401)`,
    );
  });
});
