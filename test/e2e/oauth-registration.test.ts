import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MAX_METADATA_DOCUMENT_CACHE_SECONDS,
  MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE,
  MAX_REGISTRATIONS_PER_HOUR,
  METADATA_DOCUMENT_ERROR_CACHE_SECONDS,
  MIN_METADATA_DOCUMENT_CACHE_SECONDS,
} from '#definitions/oauth-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { approveAssistant, listAssistantGrants, revokeAssistantGrant } from '#domain/assistant-grants.ts';
import type { ClientKind } from '#domain/oauth-clients.ts';
import { createOAuthClient, resolveAuthorizationClient } from '#domain/oauth-clients.ts';
import { codeChallengeOf, issueAuthorizationCode } from '#domain/oauth-grants.ts';
import { createOrganization } from '#domain/organizations.ts';
import { clientCredentialsToken } from '../../infra/local/route-requests.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { startTestStack } from '../support/local-stack.ts';
import { contractMembers } from '../support/problem.ts';

/**
 * How assistants connect to an organization without an operator: dynamic
 * client registration (RFC 7591) at POST /oauth/register, clients named by
 * the URL of their metadata document, the organization's approval (grant) of
 * each, and the refresh tokens of the code flow, rotated on every use, whose
 * reuse revokes everything descended from the code. The consent page is left
 * out: codes come from the domain (`approveAssistant`, then
 * `issueAuthorizationCode`), as the page issues them.
 */

let stack: LocalStack;
let orgId: number;
let otherOrgId: number;
let documents: DocumentServer;
const REDIRECT = 'https://assistant.example/callback';
const VERIFIER = `${'r'.repeat(30)}-._~${'Q7'.repeat(10)}`;
const APPROVER = 'owner@registration.example';

beforeAll(async () => {
  stack = await startTestStack();
  ({ orgId } = await createOrganization('Registration Inc'));
  ({ orgId: otherOrgId } = await createOrganization('Other Registration Inc'));
  documents = await startDocumentServer();
});
afterAll(async () => {
  await stack?.stop();
  await documents?.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

type Json = Record<string, unknown>;

let addresses = 0;
/**
 * The client an authorization request names, as the consent page resolves it,
 * each time for another source address: these tests fetch more metadata
 * documents than one address may in a minute (the limit has tests of its own, below).
 */
const resolveClient = (clientId: string) =>
  resolveAuthorizationClient(clientId, `198.51.100.${(addresses++ % 250) + 1}`);

async function register(body: unknown, contentType = 'application/json') {
  const response = await fetch(`${stack.apiUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // An error's RFC 9457 members are checked here once; the tests compare the OAuth members.
  const answered = contractMembers(response.status, await response.text()) as Json;
  return { status: response.status, headers: response.headers, body: answered };
}

/** Registers a client (201), returning its id and, for a confidential one, its secret. */
async function registered(metadata: Json): Promise<{ clientId: string; clientSecret?: string }> {
  const answer = await register({ redirect_uris: [REDIRECT], ...metadata });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { clientId: answer.body.client_id as string, clientSecret: answer.body.client_secret as string };
}

async function tokenRequest(parameters: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${stack.apiUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(parameters),
  });
  return {
    status: response.status,
    body: contractMembers(response.status, await response.text()) as Record<string, string>,
  };
}

/** A code for the client in `orgId` (or another organization), as the consent page issues it on approval. */
async function approvedCode(clientId: string, kind: ClientKind, organization = orgId): Promise<string> {
  await approveAssistant({
    orgId: organization,
    clientId,
    clientName: 'Assistant',
    kind,
    approvedBy: APPROVER,
  });
  return codeOf(clientId, organization);
}

/** A code issued without recording an approval. */
const codeOf = (clientId: string, organization = orgId) =>
  issueAuthorizationCode({
    orgId: organization,
    clientId,
    resource: `${stack.apiUrl}/mcp`,
    scope: MCP_SCOPE,
    redirectUri: REDIRECT,
    codeChallenge: codeChallengeOf(VERIFIER),
  });

/** Redeems a code as a public client: `client_id` alone. */
const redeem = (clientId: string, code: string, credentials: Record<string, string> = {}) =>
  tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: VERIFIER,
    client_id: clientId,
    ...credentials,
  });

const refresh = (clientId: string, refreshToken: string) =>
  tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

/** The status /mcp answers a ping with under `token`. */
async function mcpStatus(token: string): Promise<number> {
  const response = await fetch(`${stack.apiUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status;
}

/** The MCP SDK's own client with a bearer token: the names of the tools it lists. */
async function toolsListedWith(token: string): Promise<string[]> {
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.apiUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'registered-assistant', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name);
}

describe('dynamic client registration (RFC 7591)', () => {
  it('registers a public client: no secret, its metadata echoed, of no organization', async () => {
    const answer = await register({
      redirect_uris: [REDIRECT, 'http://127.0.0.1:43123/callback'],
      client_name: 'Public Assistant',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: MCP_SCOPE,
      logo_uri: 'https://assistant.example/logo.png',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      client_id: expect.stringMatching(/^mcp_[A-Za-z0-9_-]{16}$/),
      client_id_issued_at: expect.any(Number),
      redirect_uris: [REDIRECT, 'http://127.0.0.1:43123/callback'],
      client_name: 'Public Assistant',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: MCP_SCOPE,
    });
    expect(Math.abs((answer.body.client_id_issued_at as number) - Date.now() / 1000)).toBeLessThan(60);
    expect(await resolveClient(answer.body.client_id as string)).toEqual({
      clientId: answer.body.client_id,
      name: 'Public Assistant',
      redirectUris: [REDIRECT, 'http://127.0.0.1:43123/callback'],
      orgId: null,
      kind: 'dynamic',
    });
  });

  it('registers a confidential client by default (client_secret_basic), with a secret that never expires', async () => {
    const answer = await register({
      redirect_uris: ['http://[::1]:8080/cb', 'http://localhost/cb', 'https://app.example/cb'],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      client_id: expect.stringMatching(/^mcp_/),
      client_secret: expect.stringMatching(/^mcs_[A-Za-z0-9_-]{43}$/),
      client_secret_expires_at: 0,
      client_id_issued_at: expect.any(Number),
      redirect_uris: ['http://[::1]:8080/cb', 'http://localhost/cb', 'https://app.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: MCP_SCOPE,
    });
    // Named after its first redirect URI's host when it gives no name.
    expect(await resolveClient(answer.body.client_id as string)).toMatchObject({
      name: '[::1]:8080',
    });
  });

  it.each([
    ['a non-https redirect URI', { redirect_uris: ['http://assistant.example/cb'] }, 'invalid_redirect_uri'],
    [
      'http on a host that only starts like loopback',
      { redirect_uris: ['http://127.0.0.1.evil.example/cb'] },
      'invalid_redirect_uri',
    ],
    ['a redirect URI with a fragment', { redirect_uris: [`${REDIRECT}#fragment`] }, 'invalid_redirect_uri'],
    ['an empty fragment', { redirect_uris: [`${REDIRECT}#`] }, 'invalid_redirect_uri'],
    ['a private-use scheme', { redirect_uris: ['com.example.app:/callback'] }, 'invalid_redirect_uri'],
    ['javascript:', { redirect_uris: ['javascript:alert(1)//'] }, 'invalid_redirect_uri'],
    [
      '11 redirect URIs',
      { redirect_uris: Array.from({ length: 11 }, (_, index) => `${REDIRECT}/${index}`) },
      'invalid_redirect_uri',
    ],
    ['no redirect URI', { redirect_uris: [] }, 'invalid_redirect_uri'],
    ['no redirect_uris', { client_name: 'Nowhere' }, 'invalid_redirect_uri'],
    [
      'an unknown authentication method',
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
    ],
    [
      'a scope other than mcp:read',
      { redirect_uris: [REDIRECT], scope: 'mcp:read mcp:write' },
      'invalid_client_metadata',
    ],
    [
      'the client-credentials grant',
      { redirect_uris: [REDIRECT], grant_types: ['client_credentials'] },
      'invalid_client_metadata',
    ],
    [
      'refresh tokens without the code flow',
      { redirect_uris: [REDIRECT], grant_types: ['refresh_token'] },
      'invalid_client_metadata',
    ],
    [
      'the token response type',
      { redirect_uris: [REDIRECT], response_types: ['token'] },
      'invalid_client_metadata',
    ],
    [
      'a name over 100 characters',
      { redirect_uris: [REDIRECT], client_name: 'n'.repeat(101) },
      'invalid_client_metadata',
    ],
    [
      'a body over 16 KiB',
      { redirect_uris: [REDIRECT], software_statement: 'x'.repeat(16 * 1024) },
      'invalid_client_metadata',
    ],
    ['a JSON array', [{ redirect_uris: [REDIRECT] }], 'invalid_client_metadata'],
    ['a body that is not JSON', `redirect_uris=${encodeURIComponent(REDIRECT)}`, 'invalid_client_metadata'],
  ])('refuses %s with 400 %s', async (_flaw, body, error) => {
    const answer = await register(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error, error_description: expect.any(String) });
    expect(answer.headers.get('cache-control')).toContain('no-store');
  });

  it(`takes ${MAX_REGISTRATIONS_PER_HOUR} registrations an hour from one address, answering the next 429 with Retry-After`, async () => {
    // Ten minutes into an hour no other test registered in (the stack runs in this process).
    const hour = (Math.floor(Date.now() / 3_600_000) + 2) * 3_600_000;
    vi.setSystemTime(hour + 10 * 60_000);
    // A refused registration does not count.
    expect((await register({ redirect_uris: ['http://assistant.example/cb'] })).status).toBe(400);
    for (let index = 0; index < MAX_REGISTRATIONS_PER_HOUR; index++) {
      expect((await register({ redirect_uris: [REDIRECT] })).status).toBe(201);
    }
    const refused = await register({ redirect_uris: [REDIRECT] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(50 * 60));
    expect(refused.body).toEqual({ error: 'rate_limited', error_description: expect.any(String) });
    // The next hour takes registrations again.
    vi.setSystemTime(hour + 3_600_000);
    expect((await register({ redirect_uris: [REDIRECT] })).status).toBe(201);
  });
});

describe('the refresh tokens of the code flow', () => {
  it('issues a public client a pair for a code without a secret, and /mcp takes its access token', async () => {
    const { clientId } = await registered({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const answer = await redeem(clientId, await approvedCode(clientId, 'dynamic'));
    expect(answer).toEqual({
      status: 200,
      body: {
        access_token: expect.stringMatching(/^mat_[A-Za-z0-9_-]{43}$/),
        refresh_token: expect.stringMatching(/^mrt_[A-Za-z0-9_-]{43}$/),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: MCP_SCOPE,
      },
    });
    expect(await toolsListedWith(answer.body.access_token!)).toContain('list_campaigns');
  });

  it('rotates the refresh token on use, and revokes the whole family when a used one comes back', async () => {
    const { clientId } = await registered({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const first = (await redeem(clientId, await approvedCode(clientId, 'dynamic'))).body;
    const second = await refresh(clientId, first.refresh_token!);
    expect(second.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.refresh_token).toMatch(/^mrt_/);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    // The replaced access token works until it expires; the new one works too.
    expect(await mcpStatus(first.access_token!)).toBe(200);
    expect(await mcpStatus(second.body.access_token!)).toBe(200);
    const third = (await refresh(clientId, second.body.refresh_token!)).body;
    expect(await mcpStatus(third.access_token!)).toBe(200);

    // The first refresh token again: reuse. Every token descended from the code stops, the newest included.
    expect(await refresh(clientId, first.refresh_token!)).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: expect.any(String) },
    });
    for (const token of [first.access_token!, second.body.access_token!, third.access_token!])
      expect(await mcpStatus(token)).toBe(401);
    expect((await refresh(clientId, third.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it('revokes the family when a redeemed code is replayed', async () => {
    const { clientId } = await registered({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const code = await approvedCode(clientId, 'dynamic');
    const first = (await redeem(clientId, code)).body;
    const refreshed = (await refresh(clientId, first.refresh_token!)).body;
    expect((await redeem(clientId, code)).body.error).toBe('invalid_grant');
    expect(await mcpStatus(refreshed.access_token!)).toBe(401);
    expect((await refresh(clientId, refreshed.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it("refuses another client's refresh token without using it up", async () => {
    const mine = await registered({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const theirs = await registered({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const pair = (await redeem(mine.clientId, await approvedCode(mine.clientId, 'dynamic'))).body;
    expect((await refresh(theirs.clientId, pair.refresh_token!)).body.error).toBe('invalid_grant');
    expect((await refresh(mine.clientId, pair.refresh_token!)).status).toBe(200);
  });

  it('gives a client registered without the refresh grant no refresh token, and refuses it the grant', async () => {
    const { clientId } = await registered({ token_endpoint_auth_method: 'none' });
    const answer = await redeem(clientId, await approvedCode(clientId, 'dynamic'));
    expect(answer.status).toBe(200);
    expect(answer.body.refresh_token).toBeUndefined();
    expect(await refresh(clientId, `mrt_${'a'.repeat(43)}`)).toMatchObject({
      status: 400,
      body: { error: 'unauthorized_client' },
    });
  });

  it('authenticates a confidential registration by its secret, never by its id alone', async () => {
    const { clientId, clientSecret } = await registered({
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const code = await approvedCode(clientId, 'dynamic');
    expect(await redeem(clientId, code)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    const answer = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER },
      { authorization: basic },
    );
    expect(answer.status).toBe(200);
    expect(
      await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: answer.body.refresh_token!,
        client_id: clientId,
        client_secret: clientSecret!,
      }),
    ).toMatchObject({ status: 200 });
  });

  it('keeps the client-credentials grant to operator clients', async () => {
    const publicClient = await registered({ token_endpoint_auth_method: 'none' });
    expect(
      await tokenRequest({ grant_type: 'client_credentials', client_id: publicClient.clientId }),
    ).toEqual({
      status: 400,
      body: { error: 'unauthorized_client', error_description: expect.any(String) },
    });
    const confidential = await registered({});
    expect(
      await tokenRequest({
        grant_type: 'client_credentials',
        client_id: confidential.clientId,
        client_secret: confidential.clientSecret!,
      }),
    ).toMatchObject({ status: 400, body: { error: 'unauthorized_client' } });
  });

  it('redeems no code of a client the organization did not approve, or approved for another organization', async () => {
    const { clientId } = await registered({ token_endpoint_auth_method: 'none' });
    expect((await redeem(clientId, await codeOf(clientId))).body.error).toBe('invalid_grant');
    await approveAssistant({
      orgId: otherOrgId,
      clientId,
      clientName: 'Elsewhere',
      kind: 'dynamic',
      approvedBy: APPROVER,
    });
    expect((await redeem(clientId, await codeOf(clientId))).body.error).toBe('invalid_grant');
  });

  it('issues an operator client refresh tokens too, and approves it for its own organization only', async () => {
    const operator = await createOAuthClient(orgId, 'Operator Assistant', [REDIRECT]);
    const answer = await redeem(operator.clientId, await approvedCode(operator.clientId, 'operator'), {
      client_secret: operator.clientSecret,
    });
    expect(answer.body.refresh_token).toMatch(/^mrt_/);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: answer.body.refresh_token!,
      client_id: operator.clientId,
      client_secret: operator.clientSecret,
    });
    expect(refreshed.status).toBe(200);
    await expect(
      approveAssistant({
        orgId: otherOrgId,
        clientId: operator.clientId,
        clientName: 'Operator Assistant',
        kind: 'operator',
        approvedBy: APPROVER,
      }),
    ).rejects.toMatchObject({ name: 'OAuthClientNotFound' });
    // Nor does it get tokens for another organization from a code naming one.
    expect(
      (
        await redeem(operator.clientId, await codeOf(operator.clientId, otherOrgId), {
          client_secret: operator.clientSecret,
        })
      ).body.error,
    ).toBe('invalid_grant');
  });
});

describe("an organization's grants", () => {
  it('records one grant per organization and client, refreshed by each approval', async () => {
    const { clientId } = await registered({ token_endpoint_auth_method: 'none', client_name: 'Listed' });
    const first = await approveAssistant({
      orgId,
      clientId,
      clientName: 'Listed',
      kind: 'dynamic',
      approvedBy: 'first@registration.example',
    });
    const again = await approveAssistant({
      orgId,
      clientId,
      clientName: 'Listed again',
      kind: 'dynamic',
      approvedBy: 'second@registration.example',
    });
    expect(again).toEqual({
      orgId,
      clientId,
      clientName: 'Listed again',
      kind: 'dynamic',
      approvedBy: 'second@registration.example',
      createdAt: first.createdAt,
      approvedAt: expect.any(String),
      revokedAt: null,
    });
    const listed = (await listAssistantGrants(orgId)).filter((grant) => grant.clientId === clientId);
    expect(listed).toEqual([again]);
  });

  it('stops every token of the client for the organization when it revokes the grant, until it approves again', async () => {
    const { clientId } = await registered({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const pair = (await redeem(clientId, await approvedCode(clientId, 'dynamic'))).body;
    const waiting = await codeOf(clientId);
    expect(await mcpStatus(pair.access_token!)).toBe(200);

    const revoked = await revokeAssistantGrant(orgId, clientId);
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect(await mcpStatus(pair.access_token!)).toBe(401);
    expect((await refresh(clientId, pair.refresh_token!)).body.error).toBe('invalid_grant');
    expect((await redeem(clientId, waiting)).body.error).toBe('invalid_grant');
    // Idempotent.
    expect(await revokeAssistantGrant(orgId, clientId)).toEqual(revoked);

    // Approving again starts afresh: new tokens work, those from before stay dead.
    const renewed = (await redeem(clientId, await approvedCode(clientId, 'dynamic'))).body;
    expect(await mcpStatus(renewed.access_token!)).toBe(200);
    expect(await mcpStatus(pair.access_token!)).toBe(401);
    expect((await refresh(clientId, pair.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it('records an operator client’s binding with its first token; revoking it ends its client-credentials grant', async () => {
    const operator = await createOAuthClient(orgId, 'Nightly agent', []);
    const token = await clientCredentialsToken(stack.apiUrl, operator);
    expect(await mcpStatus(token)).toBe(200);
    expect(
      (await listAssistantGrants(orgId)).find((grant) => grant.clientId === operator.clientId),
    ).toMatchObject({
      kind: 'operator',
      clientName: 'Nightly agent',
      approvedBy: null,
      revokedAt: null,
    });
    await revokeAssistantGrant(orgId, operator.clientId);
    expect(await mcpStatus(token)).toBe(401);
    expect(
      await tokenRequest({
        grant_type: 'client_credentials',
        client_id: operator.clientId,
        client_secret: operator.clientSecret,
      }),
    ).toMatchObject({ status: 400, body: { error: 'unauthorized_client' } });
  });

  it('shows another organization neither the grant nor a way to revoke it: it is as unknown as any', async () => {
    const { clientId } = await registered({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const pair = (await redeem(clientId, await approvedCode(clientId, 'dynamic'))).body;
    expect((await listAssistantGrants(otherOrgId)).map((grant) => grant.clientId)).not.toContain(clientId);
    const refusal = (id: string) =>
      revokeAssistantGrant(otherOrgId, id).then(
        () => null,
        (error: Error) => ({ name: error.name, message: error.message.replace(id, '<client>') }),
      );
    const unknown = await refusal('mcp_neverregistered0');
    expect(unknown).toMatchObject({ name: 'AssistantGrantNotFound' });
    expect(await refusal(clientId)).toEqual(unknown);
    expect(await mcpStatus(pair.access_token!)).toBe(200);
    expect((await refresh(clientId, pair.refresh_token!)).status).toBe(200);
  });
});

describe('client ID metadata documents', () => {
  const document = (path: string, changes: Json = {}) => ({
    client_id: `${documents.url}${path}`,
    client_name: 'Documented Assistant',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    ...changes,
  });

  it('resolves a client from the document at its id', async () => {
    const clientId = documents.serve('/assistant.json', document('/assistant.json'));
    expect(await resolveClient(clientId)).toEqual({
      clientId,
      name: 'Documented Assistant',
      redirectUris: [REDIRECT],
      orgId: null,
      kind: 'metadata-document',
    });
  });

  it.each([
    [
      'names another client_id',
      (path: string) => document(path, { client_id: `${documents.url}/other.json` }),
    ],
    ['has no redirect_uris', (path: string) => document(path, { redirect_uris: undefined })],
    [
      'has an http redirect URI to another host',
      (path: string) => document(path, { redirect_uris: ['http://assistant.example/cb'] }),
    ],
    [
      'declares a secret method',
      (path: string) => document(path, { token_endpoint_auth_method: 'client_secret_basic' }),
    ],
    ['is over 5 KiB', (path: string) => document(path, { padding: 'p'.repeat(5 * 1024) })],
  ])('refuses a document that %s', async (_flaw, make) => {
    const path = `/refused-${Math.random().toString(36).slice(2)}.json`;
    const clientId = documents.serve(path, make(path));
    expect(await resolveClient(clientId)).toBeNull();
    expect(documents.hits(path)).toBe(1);
  });

  it('follows no redirect, and takes no other answer than 200 JSON', async () => {
    const target = documents.serve('/target.json', document('/target.json'));
    expect(await resolveClient(documents.redirect('/moved.json', target))).toBeNull();
    expect(documents.hits('/target.json')).toBe(0);
    expect(await resolveClient(`${documents.url}/missing.json`)).toBeNull();
    expect(await resolveClient(documents.serveText('/text.json', 'not json'))).toBeNull();
  });

  it('fetches nothing for an id that is no document URL: no path, a fragment, credentials, dot segments', async () => {
    for (const clientId of [
      `${documents.url}/`,
      `${documents.url}/assistant.json#x`,
      `${documents.url.replace('http://', 'http://user:secret@')}/assistant.json`,
      `${documents.url}/a/../assistant.json`,
      `http://assistant.example/assistant.json`,
    ]) {
      expect({ clientId, resolved: await resolveClient(clientId) }).toEqual({
        clientId,
        resolved: null,
      });
    }
    expect(documents.hits('/')).toBe(0);
  });

  it('runs the code flow for a document client: public, with refresh tokens', async () => {
    const clientId = documents.serve('/flow.json', document('/flow.json'));
    const resolved = await resolveClient(clientId);
    expect(resolved?.kind).toBe('metadata-document');
    const pair = await redeem(clientId, await approvedCode(clientId, 'metadata-document'));
    expect(pair.status).toBe(200);
    expect(await mcpStatus(pair.body.access_token!)).toBe(200);
    expect((await refresh(clientId, pair.body.refresh_token!)).status).toBe(200);
    expect(await tokenRequest({ grant_type: 'client_credentials', client_id: clientId })).toMatchObject({
      status: 400,
      body: { error: 'unauthorized_client' },
    });
    expect((await listAssistantGrants(orgId)).find((grant) => grant.clientId === clientId)).toMatchObject({
      kind: 'metadata-document',
      approvedBy: APPROVER,
    });
  });
});

describe('client ID metadata documents at the authorization endpoint', () => {
  // Every request of these tests comes from 127.0.0.1, the local gateway's source address.
  const uniquePath = (name: string) => `/${name}-${Math.random().toString(36).slice(2)}.json`;
  const documentAt = (path: string) => ({
    client_id: `${documents.url}${path}`,
    client_name: 'Cached Assistant',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  });
  const servedDocument = (name: string, headers: Record<string, string> = {}) => {
    const path = uniquePath(name);
    return { path, clientId: documents.serve(path, documentAt(path), headers) };
  };

  /** An anonymous GET /oauth/authorize naming `clientId`: 303 to the sign-in once the client is known. */
  async function authorize(clientId: string) {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: codeChallengeOf(VERIFIER),
      code_challenge_method: 'S256',
    });
    const response = await fetch(`${stack.apiUrl}/oauth/authorize?${query}`, { redirect: 'manual' });
    await response.text();
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      type: response.headers.get('content-type'),
    };
  }

  it('fetches a document once for many authorization requests, and again past its max-age', async () => {
    const now = Date.now();
    const { path, clientId } = servedDocument('cached', { 'cache-control': 'public, max-age=600' });
    for (let index = 0; index < 5; index++) expect((await authorize(clientId)).status).toBe(303);
    expect(documents.hits(path)).toBe(1);
    vi.setSystemTime(now + 599_000);
    expect((await authorize(clientId)).status).toBe(303);
    expect(documents.hits(path)).toBe(1);
    vi.setSystemTime(now + 601_000);
    expect((await authorize(clientId)).status).toBe(303);
    expect(documents.hits(path)).toBe(2);
  });

  it(`keeps a document at most ${MAX_METADATA_DOCUMENT_CACHE_SECONDS} s, and one that asks for no caching ${MIN_METADATA_DOCUMENT_CACHE_SECONDS} s`, async () => {
    const now = Date.now();
    const long = servedDocument('long', { 'cache-control': 'max-age=86400' });
    const uncached = servedDocument('no-store', { 'cache-control': 'no-store' });
    const bare = servedDocument('bare');
    for (const { clientId } of [long, uncached, bare, long, uncached, bare])
      expect((await authorize(clientId)).status).toBe(303);
    expect([long, uncached, bare].map(({ path }) => documents.hits(path))).toEqual([1, 1, 1]);
    vi.setSystemTime(now + (MIN_METADATA_DOCUMENT_CACHE_SECONDS + 1) * 1000);
    for (const { clientId } of [long, uncached, bare]) expect((await authorize(clientId)).status).toBe(303);
    expect([long, uncached, bare].map(({ path }) => documents.hits(path))).toEqual([1, 2, 2]);
    vi.setSystemTime(now + (MAX_METADATA_DOCUMENT_CACHE_SECONDS + 1) * 1000);
    expect((await authorize(long.clientId)).status).toBe(303);
    expect(documents.hits(long.path)).toBe(2);
  });

  it(`keeps a refusal ${METADATA_DOCUMENT_ERROR_CACHE_SECONDS} s: a document that cannot be fetched, or is invalid`, async () => {
    const now = Date.now();
    const missing = uniquePath('missing');
    const clientId = `${documents.url}${missing}`;
    const invalid = uniquePath('invalid');
    const invalidId = documents.serveText(invalid, 'not json');
    for (let index = 0; index < 3; index++) {
      expect((await authorize(clientId)).status).toBe(400);
      expect((await authorize(invalidId)).status).toBe(400);
    }
    expect([documents.hits(missing), documents.hits(invalid)]).toEqual([1, 1]);
    // The document appears: the refusal stands until it expires.
    documents.serve(missing, documentAt(missing));
    vi.setSystemTime(now + (METADATA_DOCUMENT_ERROR_CACHE_SECONDS - 1) * 1000);
    expect((await authorize(clientId)).status).toBe(400);
    expect(documents.hits(missing)).toBe(1);
    vi.setSystemTime(now + (METADATA_DOCUMENT_ERROR_CACHE_SECONDS + 1) * 1000);
    expect((await authorize(clientId)).status).toBe(303);
    expect(documents.hits(missing)).toBe(2);
  });

  it(`fetches at most ${MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE} documents a minute for one address, answering the next 429 with Retry-After`, async () => {
    // Fifteen seconds into a minute no other test fetched in (the stack runs in this process).
    const minute = (Math.floor(Date.now() / 60_000) + 24 * 60) * 60_000;
    vi.setSystemTime(minute + 15_000);
    const served = Array.from({ length: MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE + 1 }, () =>
      servedDocument('limited'),
    );
    for (const { clientId } of served.slice(0, -1)) expect((await authorize(clientId)).status).toBe(303);
    const last = served.at(-1)!;
    expect(await authorize(last.clientId)).toEqual({
      status: 429,
      retryAfter: '45',
      type: expect.stringMatching(/^text\/html/),
    });
    expect(documents.hits(last.path)).toBe(0);
    // A document in the cache is no fetch: it does not count.
    expect((await authorize(served[0]!.clientId)).status).toBe(303);
    vi.setSystemTime(minute + 60_000);
    expect((await authorize(last.clientId)).status).toBe(303);
    expect(documents.hits(last.path)).toBe(1);
  });
});

/** An HTTP server on 127.0.0.1 serving client metadata documents (the local stack may fetch over loopback http). */
interface DocumentServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Serves `body` as JSON at `path`, with `headers` besides its type; returns its URL. */
  serve(path: string, body: unknown, headers?: Record<string, string>): string;
  /** Serves `text` as is at `path`; returns its URL. */
  serveText(path: string, text: string): string;
  /** Answers `path` with a 302 to `location`; returns its URL. */
  redirect(path: string, location: string): string;
  /** How many requests `path` got. */
  hits(path: string): number;
  stop(): Promise<void>;
}

async function startDocumentServer(): Promise<DocumentServer> {
  const answers = new Map<string, { status: number; headers: Record<string, string>; body: string }>();
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path) ?? { status: 404, headers: {}, body: '' };
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const json = { 'content-type': 'application/json' };
  return {
    url,
    serve(path, body, headers = {}) {
      answers.set(path, { status: 200, headers: { ...json, ...headers }, body: JSON.stringify(body) });
      return `${url}${path}`;
    },
    serveText(path, text) {
      answers.set(path, { status: 200, headers: json, body: text });
      return `${url}${path}`;
    },
    redirect(path, location) {
      answers.set(path, { status: 302, headers: { location }, body: '' });
      return `${url}${path}`;
    },
    hits: (path) => hits.get(path) ?? 0,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
