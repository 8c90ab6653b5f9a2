import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { getProviderConnection, providerApiKeyOf } from '#domain/provider-connections.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { PROVIDERS, type Provider } from '#schemas/import.ts';
import { keys } from '#store/keys.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { admin } from '../support/cli.ts';
import { dashboardClient } from '../support/dashboard.ts';
import { startTestStack } from '../support/local-stack.ts';
import { closedPort } from '../support/provider-emulator-http.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';

/**
 * A provider API key is verified with the provider (its emulator here)
 * before a connection is stored or given the key: over HTTP for each
 * provider, and through the CLI and the dashboard's form, which call the
 * same use case.
 */

let stack: LocalStack;
let orgId: number;
let apiKey: string;
const localDir = mkdtempSync(join(tmpdir(), 'provider-key-verification-'));

const NAMES: Record<Provider, string> = {
  smartlead: 'Smartlead',
  instantly: 'Instantly',
  lemlist: 'lemlist',
  heyreach: 'HeyReach',
};

beforeAll(async () => {
  stack = await startTestStack({ endpointsDir: localDir });
  ({ orgId } = await createOrganization('Verifying Agency'));
  ({ apiKey } = await createApiKey(orgId));
});
afterAll(async () => {
  await stack.stop();
});

const api = () => apiClient(stack, apiKey);
const listedIds = async () =>
  ((await api().get('/provider-connections')).body.connections as { id: number }[]).map((each) => each.id);

describe.each(PROVIDERS)('connecting %s', (provider) => {
  it('stores a key the provider accepts, and refuses a wrong one or an unreachable provider storing nothing', async () => {
    const body = await emulatedConnection(stack, provider);
    const before = await listedIds();

    const wrong = await api().post('/provider-connections', { ...body, api_key: `${body.api_key}-wrong` });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(`${NAMES[provider]} refused this API key (401)`);

    const unreachable = await api().post('/provider-connections', {
      ...body,
      base_url: `http://127.0.0.1:${await closedPort()}`,
    });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.message).toMatch(new RegExp(`^${NAMES[provider]} could not be reached`));
    expect(await listedIds()).toEqual(before);

    const made = await api().post('/provider-connections', body);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(await listedIds()).toEqual([...before, made.body.id]);
    const record = await getProviderConnection(orgId, made.body.id);
    expect(await providerApiKeyOf(record)).toBe(body.api_key);
    // Instantly's check names the workspace (its rate limit is the workspace's): kept on the connection.
    if (provider === 'instantly') expect(record.workspaceId).toEqual(expect.any(String));
    else expect(record.workspaceId).toBeUndefined();
  });

  it('replaces a key only with one the provider accepts, keeping the old one otherwise', async () => {
    const body = await emulatedConnection(stack, provider);
    const made = await api().post('/provider-connections', body);
    expect(made.status).toBe(200);
    const id = made.body.id as number;
    const { api_key: newKey } = await emulatedConnection(stack, provider);

    const wrong = await api().patch(`/provider-connections/${id}`, { api_key: `${newKey}-wrong` });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(`${NAMES[provider]} refused this API key (401)`);
    expect(await providerApiKeyOf(await getProviderConnection(orgId, id))).toBe(body.api_key);

    const replaced = await api().patch(`/provider-connections/${id}`, { api_key: newKey });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    // The webhook URL pasted into the provider goes on working; the new key was just accepted: ok since.
    expect(replaced.body).toEqual({ ...made.body, last_success_at: expect.any(String) });
    expect(replaced.body.last_success_at >= made.body.last_success_at).toBe(true);
    const record = await getProviderConnection(orgId, id);
    expect(await providerApiKeyOf(record)).toBe(newKey);
    expect(record.apiKeyHint).toBe(newKey.slice(-4));
  });
});

describe('replacing a key', () => {
  it('answers 502 and keeps the old key when the provider cannot be reached', async () => {
    const port = await closedPort();
    // A connection made while its provider answered, at an address that stops answering.
    const body = await emulatedConnection(stack, 'smartlead');
    const made = await api().post('/provider-connections', body);
    expect(made.status).toBe(200);
    const id = made.body.id as number;
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.providerConnection(orgId, id),
        UpdateExpression: 'SET baseUrl = :url',
        ExpressionAttributeValues: { ':url': `http://127.0.0.1:${port}` },
      }),
    );
    const { api_key: newKey } = await emulatedConnection(stack, 'smartlead');
    const answer = await api().patch(`/provider-connections/${id}`, { api_key: newKey });
    expect(answer.status).toBe(502);
    expect(answer.body.message).toMatch(/^Smartlead could not be reached/);
    expect(await providerApiKeyOf(await getProviderConnection(orgId, id))).toBe(body.api_key);
  });

  it('answers 404 for another organization’s connection or an unknown one', async () => {
    const { orgId: otherOrg } = await createOrganization('Other Agency');
    const { apiKey: otherKey } = await createApiKey(otherOrg);
    const body = await emulatedConnection(stack, 'smartlead');
    const made = await apiClient(stack, otherKey).post('/provider-connections', body);
    expect(made.status).toBe(200);
    const { api_key: newKey } = await emulatedConnection(stack, 'smartlead');
    expect((await api().patch(`/provider-connections/${made.body.id}`, { api_key: newKey })).status).toBe(
      404,
    );
    expect((await api().patch('/provider-connections/99999999', { api_key: newKey })).status).toBe(404);
    expect(await providerApiKeyOf(await getProviderConnection(otherOrg, made.body.id))).toBe(body.api_key);
  });
});

describe('the CLI and the dashboard', () => {
  it('refuse a wrong key with the provider’s message, storing nothing', async () => {
    const body = await emulatedConnection(stack, 'lemlist');
    const before = await listedIds();
    const cliConnect = (key: string, ...more: string[]) =>
      admin(localDir, [
        ...['provider', 'connect', '--org', String(orgId), '--provider', 'lemlist'],
        ...['--api-key', key, '--base-url', body.base_url, ...more],
      ]);
    const cli = await cliConnect(`${body.api_key}-wrong`);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('lemlist refused this API key (401)');

    const dashboard = await dashboardClient(stack.apiUrl, { orgId, role: 'admin' });
    const form = await dashboard.post('/dashboard/providers', {
      provider: 'lemlist',
      api_key: `${body.api_key}-wrong`,
      base_url: body.base_url,
    });
    expect(form.status).toBe(400);
    expect(form.text).toContain('lemlist refused this API key (401)');
    expect(await listedIds()).toEqual(before);

    const connected = await cliConnect(body.api_key, '--json');
    expect(connected.code, connected.stderr).toBe(0);
  });
});
