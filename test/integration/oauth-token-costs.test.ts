import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE } from '#definitions/oauth-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { approveAssistant } from '#domain/assistant-grants.ts';
import {
  authenticateClient,
  createOAuthClient,
  identifyPublicClient,
  resolveAuthorizationClient,
} from '#domain/oauth-clients.ts';
import {
  codeChallengeOf,
  issueAuthorizationCode,
  issueClientCredentialsToken,
  redeemAuthorizationCode,
  refreshAccessToken,
  verifyAccessToken,
} from '#domain/oauth-grants.ts';
import { registerClient } from '#domain/oauth-registration.ts';
import { createOrganization } from '#domain/organizations.ts';
import { configuration, useConfiguration } from '#platform/config.ts';
import { countRequests } from '../support/request-counter.ts';

/**
 * What a bearer token costs /mcp, whatever its client: one GetItem of the
 * token and one BatchGetItem of what it stands on (its client, its
 * organization's grant, its family), however many tokens the client and the
 * organization hold. And what a refresh costs: the refresh token, the grant
 * and family in one batch, one transaction. And what the authorization
 * endpoint reads of a client ID metadata document: its cache entry alone, or
 * with a fetch the address's fetch window and the new entry.
 */

const RESOURCE = 'https://api.example/mcp';
const REDIRECT = 'https://assistant.example/callback';
const VERIFIER = 'v'.repeat(43);
let orgId: number;

beforeAll(async () => {
  ({ orgId } = await createOrganization('Token Costs Inc'));
});

/** A code-flow pair for `clientId`, approved for the organization. */
async function codeFlowPair(clientId: string, kind: 'dynamic' | 'metadata-document') {
  await approveAssistant({
    orgId,
    clientId,
    clientName: 'Assistant',
    kind,
    approvedBy: 'owner@costs.example',
  });
  const code = await issueAuthorizationCode({
    orgId,
    clientId,
    resource: RESOURCE,
    scope: MCP_SCOPE,
    redirectUri: REDIRECT,
    codeChallenge: codeChallengeOf(VERIFIER),
  });
  const client = (await identifyPublicClient(clientId))!;
  const pair = await redeemAuthorizationCode(code, { client, redirectUri: REDIRECT, codeVerifier: VERIFIER });
  return { client, pair: pair! };
}

describe('DynamoDB requests of the OAuth tokens', () => {
  it('verifies an operator client’s client-credentials token with one GetItem and one BatchGetItem', async () => {
    const operator = await createOAuthClient(orgId, 'Operator', []);
    const client = (await authenticateClient(operator.clientId, operator.clientSecret))!;
    // Many tokens of the client: none of them is read to verify another.
    for (let index = 0; index < 5; index++)
      await issueClientCredentialsToken(client, { resource: RESOURCE, scope: MCP_SCOPE });
    const token = (await issueClientCredentialsToken(client, { resource: RESOURCE, scope: MCP_SCOPE }))!;
    const { result, byCommand } = await countRequests(() => verifyAccessToken(token.access_token, RESOURCE));
    expect(result).toMatchObject({ orgId, clientId: operator.clientId });
    expect(byCommand).toEqual({ GetItem: 1, BatchGetItem: 1 });
  });

  it('verifies a registered client’s and a metadata-document client’s code-flow token alike', async () => {
    const registered = await registerClient(
      {
        redirectUris: [REDIRECT],
        clientName: 'Registered',
        tokenEndpointAuthMethod: 'none',
        grantTypes: ['authorization_code', 'refresh_token'],
      },
      '192.0.2.1',
    );
    for (const [clientId, kind] of [
      [registered.clientId, 'dynamic'],
      ['https://assistant.example/oauth/client.json', 'metadata-document'],
    ] as const) {
      const { pair } = await codeFlowPair(clientId, kind);
      const { result, byCommand } = await countRequests(() => verifyAccessToken(pair.access_token, RESOURCE));
      expect({ clientId, result }).toMatchObject({ clientId, result: { orgId, clientId } });
      expect({ clientId, byCommand }).toEqual({ clientId, byCommand: { GetItem: 1, BatchGetItem: 1 } });
    }
  });

  it('refreshes with one GetItem, one BatchGetItem and one transaction', async () => {
    const registered = await registerClient(
      {
        redirectUris: [REDIRECT],
        clientName: 'Refreshing',
        tokenEndpointAuthMethod: 'none',
        grantTypes: ['authorization_code', 'refresh_token'],
      },
      '192.0.2.1',
    );
    const { client, pair } = await codeFlowPair(registered.clientId, 'dynamic');
    const { result, byCommand } = await countRequests(() =>
      refreshAccessToken(pair.refresh_token!, { client }),
    );
    expect(result?.refresh_token).toMatch(/^mrt_/);
    expect(byCommand).toEqual({ GetItem: 1, BatchGetItem: 1, TransactWriteItems: 1 });
  });
});

describe('DynamoDB requests of a client ID metadata document at the authorization endpoint', () => {
  let server: Server;
  let base: string;
  let fetches = 0;
  const previous = configuration();

  beforeAll(async () => {
    // Documents on this machine are reachable over http where loopback is allowed (the local stack's policy).
    useConfiguration({ ...previous, webhooks: { ...previous.webhooks, allowHttpLoopback: true } });
    server = createServer((request, response) => {
      fetches += 1;
      const clientId = `${base}${request.url}`;
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(
        JSON.stringify({
          client_id: clientId,
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    useConfiguration(previous);
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads the cache entry (GetItem); a fetch adds the address window (UpdateItem) and the entry (PutItem)', async () => {
    const clientId = `${base}/costs.json`;
    const first = await countRequests(() => resolveAuthorizationClient(clientId, '192.0.2.10'));
    expect(first.result).toMatchObject({ clientId, kind: 'metadata-document' });
    expect(first.byCommand).toEqual({ GetItem: 1, UpdateItem: 1, PutItem: 1 });
    const cached = await countRequests(() => resolveAuthorizationClient(clientId, '192.0.2.11'));
    expect(cached.result).toEqual(first.result);
    expect(cached.byCommand).toEqual({ GetItem: 1 });
    expect(fetches).toBe(1);
  });

  it("refuses a fetch over the address's limit after the read and the refused count, fetching nothing", async () => {
    const address = '192.0.2.12';
    for (let index = 0; index < MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE; index++)
      await resolveAuthorizationClient(`${base}/limit-${index}.json`, address);
    const before = fetches;
    const refused = await countRequests(() =>
      resolveAuthorizationClient(`${base}/limit-over.json`, address).then(
        () => 'resolved',
        (error: Error) => error.name,
      ),
    );
    expect(refused.result).toBe('MetadataDocumentFetchLimitReached');
    expect(refused.byCommand).toEqual({ GetItem: 1, UpdateItem: 1 });
    expect(fetches).toBe(before);
  });
});
