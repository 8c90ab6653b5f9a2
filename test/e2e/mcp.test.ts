import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOAuthClient, revokeOAuthClient } from '#domain/oauth-clients.ts';
import { codeChallengeOf } from '#domain/oauth-grants.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { hashSecret } from '#platform/secret-hash.ts';
import { keys } from '#store/keys.ts';
import { signedInMember } from '../../infra/local/dashboard-member.ts';
import { clientCredentialsToken } from '../../infra/local/route-requests.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';

/**
 * The MCP server over HTTP against the local stack, driven by the SDK's own
 * client and transport (an independent implementation of the protocol, which
 * the server implements itself: shared/api/mcp/protocol.ts), with tokens from
 * the client-credentials and the authorization-code (PKCE) flows.
 */

let stack: LocalStack;
let orgId: number;
let apiKey: string;
let credentials: { clientId: string; clientSecret: string };
const REDIRECT = 'https://assistant.example/callback';

beforeAll(async () => {
  stack = await startTestStack();
  ({ orgId } = await createOrganization('MCP Inc'));
  ({ apiKey } = await createApiKey(orgId));
  await importFor(orgId, smallDocument());
  // These tests call tools back to back, faster than an assistant would; the rate limit has its own
  // tests (mcp-hardening.test.ts).
  credentials = await createOAuthClient(orgId, 'Assistant', [REDIRECT], { rateLimit: MAX_MCP_CLIENT_RATE });
});
afterAll(() => stack.stop());

async function connect(clientId = credentials.clientId, clientSecret = credentials.clientSecret) {
  const provider = new ClientCredentialsProvider({ clientId, clientSecret, expectedIssuer: stack.apiUrl });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.apiUrl}/mcp`), {
    authProvider: provider,
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function rest(path: string) {
  return (await apiClient(stack, apiKey).get(path)).body;
}

const tokenFor = (clientId: string, clientSecret: string) =>
  clientCredentialsToken(stack.apiUrl, { clientId, clientSecret });

async function rpc(token: string | null, body: unknown, method = 'POST') {
  const response = await fetch(`${stack.apiUrl}/mcp`, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: method === 'POST' ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

describe('OAuth discovery', () => {
  it('serves protected-resource metadata for /mcp at both well-known paths', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const response = await fetch(`${stack.apiUrl}${path}`);
      expect(await response.json()).toMatchObject({
        resource: `${stack.apiUrl}/mcp`,
        authorization_servers: [stack.apiUrl],
        scopes_supported: ['mcp:read'],
      });
    }
  });

  it('serves authorization-server metadata with S256, registration, metadata documents and public clients', async () => {
    const response = await fetch(`${stack.apiUrl}/.well-known/oauth-authorization-server`);
    expect(await response.json()).toEqual({
      issuer: stack.apiUrl,
      authorization_endpoint: `${stack.apiUrl}/oauth/authorize`,
      token_endpoint: `${stack.apiUrl}/oauth/token`,
      registration_endpoint: `${stack.apiUrl}/oauth/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: ['mcp:read'],
      client_id_metadata_document_supported: true,
    });
  });
});

describe('the MCP server', () => {
  it('does not advertise tool list changes: its tools are fixed, and it has no stream to announce one', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    await client.close();
  });

  it('lists every research tool, read-only, with input and output schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'check_eligibility',
        'get_analytics_overview',
        'get_campaign',
        'list_campaign_accounts',
        'list_campaign_contacts',
        'list_campaigns',
        'lookup_account',
        'search_jobs',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    await client.close();
  });

  it('answers every tool exactly as the REST endpoint does', async () => {
    const client = await connect();
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError ?? false).toBe(false);
      expect((result.content as { type: string; text: string }[])[0]!.text.length).toBeGreaterThan(0);
      return result.structuredContent;
    };
    expect(await call('list_campaigns')).toEqual(await rest('/campaigns'));
    expect(await call('get_campaign', { campaign_id: 101 })).toEqual(await rest('/campaigns/101'));
    expect(await call('list_campaign_accounts', { campaign_id: 101 })).toEqual(
      await rest('/campaigns/101/accounts'),
    );
    expect(await call('list_campaign_contacts', { campaign_id: 101, status: 'replied' })).toEqual(
      await rest('/campaigns/101/contacts?status=replied'),
    );
    expect(await call('lookup_account', { domain: 'WWW.acme.com', campaign_id: 101 })).toEqual(
      await rest('/accounts?domain=acme.com&icpId=101'),
    );
    expect(await call('search_jobs', { domain: 'acme.com' })).toEqual(await rest('/jobs/acme.com'));
    expect(await call('get_analytics_overview')).toEqual(await rest('/analytics/overview'));
    const eligibility = await call('check_eligibility', {
      campaign_id: 101,
      emails: ['ann@acme.com', 'new@fresh.com'],
    });
    const restEligibility = await fetch(
      `${stack.apiUrl}/public/v1/campaigns/101/raw/contacts/check-eligibility`,
      {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ emails: ['ann@acme.com', 'new@fresh.com'] }),
      },
    );
    expect(eligibility).toEqual(await restEligibility.json());
    await client.close();
  });

  it('reports unknown tools, bad arguments and missing resources as tool errors', async () => {
    const client = await connect();
    const missing = await client.callTool({ name: 'get_campaign', arguments: { campaign_id: 999999 } });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('Campaign 999999 not found');
    const bad = await client.callTool({ name: 'get_campaign', arguments: { campaign_id: 'abc' } });
    expect(bad.isError).toBe(true);
    const unknown = await client
      .callTool({ name: 'drop_tables', arguments: {} })
      .catch((error: Error) => ({ isError: true, content: error.message }));
    expect(unknown.isError).toBe(true);
    await client.close();
  });

  it('answers malformed JSON-RPC with a JSON-RPC error, never a 500', async () => {
    const token = await tokenFor(credentials.clientId, credentials.clientSecret);
    const malformed = await rpc(token, '{"jsonrpc": "2.0", "method": ');
    expect(malformed.status).toBeLessThan(500);
    expect(malformed.body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    const wrongShape = await rpc(token, { hello: 'world' });
    expect(wrongShape.status).toBeLessThan(500);
    expect(wrongShape.body).toMatchObject({ jsonrpc: '2.0', error: expect.any(Object) });
  });

  it('answers GET and DELETE with 405', async () => {
    const token = await tokenFor(credentials.clientId, credentials.clientSecret);
    for (const method of ['GET', 'DELETE']) {
      const response = await rpc(token, null, method);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});

describe('MCP authorization', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };

  it('answers a missing token with 401 and the resource-metadata challenge', async () => {
    const response = await rpc(null, initialize);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${stack.apiUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('answers an unknown, expired or revoked token with 401', async () => {
    expect((await rpc(`mat_${'x'.repeat(43)}`, initialize)).status).toBe(401);

    const expired = await tokenFor(credentials.clientId, credentials.clientSecret);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.oauthGrant('token', hashSecret(expired)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const expiredResponse = await rpc(expired, initialize);
    expect(expiredResponse.status).toBe(401);
    expect(expiredResponse.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const doomed = await createOAuthClient(orgId, 'Doomed', []);
    const token = await tokenFor(doomed.clientId, doomed.clientSecret);
    expect((await rpc(token, initialize)).status).toBe(200);
    await revokeOAuthClient(orgId, doomed.clientId);
    expect((await rpc(token, initialize)).status).toBe(401);
    const refused = await fetch(`${stack.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${doomed.clientId}:${doomed.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(refused.status).toBe(401);
  });

  it('never shows one organization’s data to another organization’s token', async () => {
    const other = await createOrganization('Other MCP Inc');
    const otherClient = await createOAuthClient(other.orgId, 'Theirs', []);
    const client = await connect(otherClient.clientId, otherClient.clientSecret);
    expect((await client.callTool({ name: 'list_campaigns', arguments: {} })).structuredContent).toEqual({
      campaigns: [],
    });
    expect((await client.callTool({ name: 'get_campaign', arguments: { campaign_id: 101 } })).isError).toBe(
      true,
    );
    expect((await client.callTool({ name: 'lookup_account', arguments: { id: 301 } })).isError).toBe(true);
    await client.close();
  });

  it('refuses bad token requests with RFC 6749 errors', async () => {
    const post = (body: Record<string, string>) =>
      fetch(`${stack.apiUrl}/oauth/token`, { method: 'POST', body: new URLSearchParams(body) }).then(
        async (response) => ({
          status: response.status,
          body: (await response.json()) as { error: string },
        }),
      );
    const client = { client_id: credentials.clientId, client_secret: credentials.clientSecret };
    expect(
      await post({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: 'wrong',
      }),
    ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await post({ ...client, grant_type: 'password' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect(
      await post({ ...client, grant_type: 'client_credentials', resource: 'https://elsewhere.example/mcp' }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    expect(await post({ ...client, grant_type: 'client_credentials', scope: 'admin' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
    const granted = await post({
      ...client,
      grant_type: 'client_credentials',
      resource: `${stack.apiUrl}/mcp`,
    });
    expect(granted).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer', expires_in: 3600, scope: 'mcp:read' },
    });
  });

  it('runs the authorization-code flow with PKCE end to end', async () => {
    const verifier = 'v'.repeat(20) + Math.random().toString(36).slice(2) + 'x'.repeat(30);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: credentials.clientId,
      redirect_uri: REDIRECT,
      code_challenge: codeChallengeOf(verifier),
      code_challenge_method: 'S256',
      state: 'xyz',
      resource: `${stack.apiUrl}/mcp`,
    });
    // A person signed in to the dashboard as an admin of the organization approves.
    const member = await signedInMember(orgId, 'admin');
    const anonymous = await fetch(`${stack.apiUrl}/oauth/authorize?${query}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toContain('/dashboard/sign-in?return_to=');
    const consent = await fetch(`${stack.apiUrl}/oauth/authorize?${query}`, {
      headers: { cookie: member.cookie },
    });
    expect(consent.status).toBe(200);
    expect(await consent.text()).toContain('Assistant');

    const submit = (extra: Record<string, string>) =>
      fetch(`${stack.apiUrl}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: member.cookie },
        body: new URLSearchParams({
          ...Object.fromEntries(query),
          csrf: member.csrfToken,
          orgId: String(orgId),
          ...extra,
        }),
      });
    expect((await submit({ decision: 'approve', csrf: 'forged' })).status).toBe(403);
    const denied = await submit({ decision: 'deny' });
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied');

    const approved = await submit({ decision: 'approve' });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('xyz');
    const code = location.searchParams.get('code')!;

    const exchange = (codeVerifier: string) =>
      fetch(`${stack.apiUrl}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          code_verifier: codeVerifier,
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
        }),
      });
    const token = (await (await exchange(verifier)).json()) as { access_token: string };
    expect((await rpc(token.access_token, initialize)).status).toBe(200);
    // A code works once.
    expect((await exchange(verifier)).status).toBe(400);
  });

  it('refuses an unregistered redirect URI without redirecting, and requires PKCE', async () => {
    const base = {
      response_type: 'code',
      client_id: credentials.clientId,
      code_challenge: 'abc',
      code_challenge_method: 'S256',
    };
    const wrongRedirect = await fetch(
      `${stack.apiUrl}/oauth/authorize?${new URLSearchParams({ ...base, redirect_uri: 'https://evil.example/cb' })}`,
      { redirect: 'manual' },
    );
    expect(wrongRedirect.status).toBe(400);
    const noPkce = await fetch(
      `${stack.apiUrl}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: credentials.clientId, redirect_uri: REDIRECT })}`,
      { redirect: 'manual' },
    );
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});
