import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthClient, listOAuthClients } from '#domain/oauth-clients.ts';
import { codeChallengeOf } from '#domain/oauth-grants.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';
import { type SignedInMember, signedInMember } from '../../infra/local/dashboard-member.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { startTestStack } from '../support/local-stack.ts';

/**
 * The OAuth details of the MCP server's authorization: one client
 * authentication method per token request (RFC 6749 §2.3), authorization
 * codes that only their own client can redeem and whose replay revokes what
 * they issued (§4.1.2), redirect URIs that can carry nothing but a redirect,
 * PKCE verifiers and challenges of the RFC 7636 form, and a bounded token
 * request body.
 */

let stack: LocalStack;
let orgId: number;
let member: SignedInMember;
type Client = { clientId: string; clientSecret: string };
let assistant: Client;
let other: Client;
const REDIRECT = 'https://assistant.example/callback';
const VERIFIER = `${'a'.repeat(20)}-._~${'Z9'.repeat(10)}`;

beforeAll(async () => {
  stack = await startTestStack();
  ({ orgId } = await createOrganization('OAuth Hardening Inc'));
  assistant = await createOAuthClient(orgId, 'Assistant', [REDIRECT]);
  member = await signedInMember(orgId, 'admin');
  other = await createOAuthClient(orgId, 'Other', [REDIRECT]);
});
afterAll(() => stack.stop());

const basic = (client: Client) =>
  `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;

async function tokenRequest(parameters: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${stack.apiUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(parameters),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const bodyCredentials = (client: Client) => ({
  client_id: client.clientId,
  client_secret: client.clientSecret,
});

/** A code for `client`, approved on the consent form by an admin of the organization signed in to the dashboard. */
async function authorizationCode(
  client: Client,
  challenge = codeChallengeOf(VERIFIER),
  redirectUri = REDIRECT,
): Promise<string> {
  const response = await fetch(`${stack.apiUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: member.cookie },
    body: new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      decision: 'approve',
      csrf: member.csrfToken,
      orgId: String(orgId),
    }),
  });
  expect(response.status).toBe(302);
  const location = response.headers.get('location')!;
  expect(location.startsWith(`${redirectUri}?`)).toBe(true);
  const code = new URL(location).searchParams.get('code');
  expect(code).toMatch(/^mac_/);
  return code!;
}

const exchange = (client: Client, code: string, verifier = VERIFIER) =>
  tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    ...bodyCredentials(client),
  });

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

describe('client authentication at the token endpoint', () => {
  it('refuses Basic and body credentials together with 400 invalid_request, for two clients or one', async () => {
    for (const inBody of [other, assistant]) {
      const answer = await tokenRequest(
        { grant_type: 'client_credentials', ...bodyCredentials(inBody) },
        { authorization: basic(assistant) },
      );
      expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      expect(answer.body.access_token).toBeUndefined();
    }
    // Each method alone still works.
    expect(
      (await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic(assistant) })).status,
    ).toBe(200);
    expect((await tokenRequest({ grant_type: 'client_credentials', ...bodyCredentials(other) })).status).toBe(
      200,
    );
  });

  it('answers a token request body over 16 KiB with 413 in the OAuth error shape', async () => {
    const response = await fetch(`${stack.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(assistant) },
      body: new URLSearchParams({ grant_type: 'client_credentials', padding: 'x'.repeat(16 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.any(String),
    });
    // The consent form has the same bound; it answers as the API does.
    const consent = await fetch(`${stack.apiUrl}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: assistant.clientId, padding: 'x'.repeat(16 * 1024) }),
    });
    expect(consent.status).toBe(413);
    expect(await consent.json()).toMatchObject({ message: expect.any(String) });
  });
});

describe('authorization codes', () => {
  it('revokes the token first issued from a code when the code is replayed', async () => {
    const code = await authorizationCode(assistant);
    const first = await exchange(assistant, code);
    expect(first.status).toBe(200);
    expect(await mcpStatus(first.body.access_token!)).toBe(200);

    const replay = await exchange(assistant, code);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(first.body.access_token!)).toBe(401);
  });

  it("lets no other client burn a code: its own client still redeems it after another client's attempt", async () => {
    const code = await authorizationCode(assistant);
    const stolen = await exchange(other, code);
    expect(stolen).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const mine = await exchange(assistant, code);
    expect(mine.status).toBe(200);
    expect(await mcpStatus(mine.body.access_token!)).toBe(200);
  });

  it('keeps a code for its client when the redirect URI or the verifier does not match', async () => {
    const code = await authorizationCode(assistant);
    const wrongRedirect = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${REDIRECT}/elsewhere`,
      code_verifier: VERIFIER,
      ...bodyCredentials(assistant),
    });
    expect(wrongRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(assistant, code, 'b'.repeat(43))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await exchange(assistant, code)).status).toBe(200);
  });
});

describe('PKCE', () => {
  it('refuses code verifiers that are not 43–128 unreserved characters with invalid_request', async () => {
    for (const verifier of [
      'a',
      'a'.repeat(42),
      'a'.repeat(129),
      `${'a'.repeat(42)} `,
      `${'a'.repeat(42)}+`,
    ]) {
      const code = await authorizationCode(assistant, codeChallengeOf(verifier));
      const answer = await exchange(assistant, code, verifier);
      expect({ verifier, ...answer }).toMatchObject({
        verifier,
        status: 400,
        body: { error: 'invalid_request' },
      });
    }
    const longest = 'A'.repeat(128);
    expect(
      (await exchange(assistant, await authorizationCode(assistant, codeChallengeOf(longest)), longest))
        .status,
    ).toBe(200);
  });

  it('refuses a code challenge that is not an S256 challenge at the authorization endpoint', async () => {
    for (const challenge of ['abc', 'a'.repeat(42), 'a'.repeat(44), `${'a'.repeat(42)}=`]) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: assistant.clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const response = await fetch(`${stack.apiUrl}/oauth/authorize?${query}`, { redirect: 'manual' });
      expect({ challenge, status: response.status }).toEqual({ challenge, status: 302 });
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_request');
    }
  });
});

describe('redirect URIs', () => {
  it('registers https, http on a loopback host, and private-use schemes in reverse-domain form', async () => {
    const uris = [
      'https://app.example/callback',
      'http://127.0.0.1:8123/callback',
      'http://[::1]/callback',
      'http://localhost:3000/callback',
      'com.example.app:/oauth/callback',
    ];
    const client = await createOAuthClient(orgId, 'Native', uris);
    const [registered] = (await listOAuthClients(orgId)).filter(
      ({ clientId }) => clientId === client.clientId,
    );
    expect(registered!.redirectUris).toEqual(uris);
    // A native app's private-use scheme gets its code like any other redirect URI.
    await authorizationCode(client, codeChallengeOf(VERIFIER), 'com.example.app:/oauth/callback');
  });

  it.each([
    'javascript:alert(1)//',
    'JavaScript:alert(1)//',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'http://assistant.example/callback',
    'http://127.0.0.1.evil.example/callback',
    'https://assistant.example/callback#fragment',
    'not a url',
  ])('refuses to register %s', async (uri) => {
    await expect(createOAuthClient(orgId, 'Unsafe', [uri])).rejects.toThrow(/redirect URI/i);
  });

  it('never redirects an authorization error to an unsafe URI a client has on record', async () => {
    // A registration from before redirect URIs were checked.
    const legacy = await createOAuthClient(orgId, 'Legacy', [REDIRECT]);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.oauthClient(legacy.clientId),
        UpdateExpression: 'SET redirectUris = :uris',
        ExpressionAttributeValues: { ':uris': ['javascript:alert(1)//', 'http://assistant.example/cb'] },
      }),
    );
    for (const redirectUri of ['javascript:alert(1)//', 'http://assistant.example/cb']) {
      const query = new URLSearchParams({
        response_type: 'token',
        client_id: legacy.clientId,
        redirect_uri: redirectUri,
      });
      const response = await fetch(`${stack.apiUrl}/oauth/authorize?${query}`, { redirect: 'manual' });
      expect({ redirectUri, status: response.status }).toEqual({ redirectUri, status: 400 });
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });
});
