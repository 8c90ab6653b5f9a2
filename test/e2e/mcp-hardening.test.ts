import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JSON_TOO_DEEP_MESSAGE, MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { DEFAULT_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { MAX_CONTACTS_PER_REQUEST } from '#definitions/raw-operations.ts';
import { createOAuthClient, revokeOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { clientCredentialsToken } from '../../infra/local/route-requests.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { countRequests, sentTogether } from '../support/request-counter.ts';

/**
 * What one request to /mcp may cost (docs/mcp.md, "Limits"): one JSON-RPC
 * message per POST (no batches, as protocol 2025-06-18 has none), at most
 * 1,000 emails per eligibility check as in the REST dry run, a bounded JSON
 * depth, and a per-client request rate enforced by the MCP function itself.
 */

let stack: LocalStack;
let orgId: number;
let token: string;

beforeAll(async () => {
  stack = await startTestStack();
  ({ orgId } = await createOrganization('MCP Hardening Inc'));
  await importFor(orgId, smallDocument());
  // These tests send requests back to back; the rate limit itself is tested below with clients of its own.
  token = await tokenOf(await createOAuthClient(orgId, 'Hardening', [], { rateLimit: 1000 }));
});
afterAll(() => stack.stop());
afterEach(() => {
  vi.useRealTimers();
});

const tokenOf = (client: { clientId: string; clientSecret: string }) =>
  clientCredentialsToken(stack.apiUrl, client);

async function post(bearer: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${stack.apiUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${bearer}`,
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Json };
}

type Json = Record<string, unknown>;

const emailsOf = (call: number, count: number) =>
  Array.from({ length: count }, (_, index) => `person${index}-call${call}@fresh-example.com`);

const checkEligibility = (id: number, emails: string[]) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'check_eligibility', arguments: { campaign_id: 101, emails } },
});

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

/** JSON-RPC 2.0 §5.1: a request the server cannot take as a whole is answered with `id: null`. */
const invalidRequest = { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } };

describe('one JSON-RPC message per request', () => {
  it('refuses a batch of 40 check_eligibility calls of 1,000 emails each with 400 and checks nothing', async () => {
    const batch = Array.from({ length: 40 }, (_, call) => checkEligibility(call + 1, emailsOf(call, 1000)));
    const { result: answer, byCommand } = await countRequests(() => post(token, JSON.stringify(batch)));
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject(invalidRequest);
    expect((answer.json().error as { message: string }).message).toMatch(/batch/i);
    // Only the token's check (its item, then its client, grant and family in one batch) and the rate's
    // count: no eligibility was checked.
    expect(byCommand).toEqual({ GetItem: 1, BatchGetItem: 1, UpdateItem: 1 });
  });

  it('refuses an empty batch `[]` with 400, not 202', async () => {
    const answer = await post(token, '[]');
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject(invalidRequest);
  });

  it('refuses a batch of one message, and a batch of notifications, whatever protocol version the client names', async () => {
    for (const version of ['2025-06-18', '2025-03-26']) {
      const one = await post(token, JSON.stringify([ping]), { 'mcp-protocol-version': version });
      expect({ version, status: one.status }).toEqual({ version, status: 400 });
      expect(one.json()).toMatchObject(invalidRequest);
    }
    const notifications = await post(
      token,
      JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]),
    );
    expect(notifications.status).toBe(400);
    expect(notifications.json()).toMatchObject(invalidRequest);
  });

  it('answers an empty body with 400 and a JSON-RPC parse error', async () => {
    const answer = await post(token, '');
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it(`refuses a body nesting deeper than ${MAX_JSON_DEPTH} levels with 400 before anything parses it`, async () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    const answer = await post(
      token,
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"deep":${deep}}}}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ ...invalidRequest, error: { message: JSON_TOO_DEEP_MESSAGE } });
    // Exactly the limit is fine.
    const atLimit = `${'['.repeat(MAX_JSON_DEPTH - 3)}${']'.repeat(MAX_JSON_DEPTH - 3)}`;
    const fine = await post(
      token,
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"deep":${atLimit}}}}`,
    );
    expect(fine.status).toBe(200);
  });
});

describe('check_eligibility', () => {
  it(`takes at most ${MAX_CONTACTS_PER_REQUEST} emails per call, refusing more as the REST dry run does`, async () => {
    const tooMany = await post(
      token,
      JSON.stringify(checkEligibility(7, emailsOf(0, MAX_CONTACTS_PER_REQUEST + 1))),
    );
    expect(tooMany.status).toBe(200);
    const refused = tooMany.json() as {
      id: number;
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(refused.id).toBe(7);
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0]!.text).toContain(
      `at most ${MAX_CONTACTS_PER_REQUEST} emails per request`,
    );

    const most = await post(
      token,
      JSON.stringify(checkEligibility(8, emailsOf(0, MAX_CONTACTS_PER_REQUEST))),
    );
    const checked = most.json() as { result: { isError?: boolean; structuredContent: { summary: Json } } };
    expect(checked.result.isError ?? false).toBe(false);
    expect(checked.result.structuredContent.summary).toMatchObject({ total: MAX_CONTACTS_PER_REQUEST });
  });
});

describe('the per-client rate limit of /mcp', () => {
  /**
   * The limit counts requests per client per second of the clock; the clock
   * is held still (the stack runs in this process), so every request lands in
   * one window however slowly the machine answers.
   */
  const holdClock = () => {
    const second = Math.floor(Date.now() / 1000) * 1000;
    vi.setSystemTime(second + 500);
    return (seconds: number) => vi.setSystemTime(second + 500 + seconds * 1000);
  };

  it(`answers the request after ${DEFAULT_MCP_CLIENT_RATE} in one second 429 with Retry-After, leaving other clients alone`, async () => {
    const busy = await tokenOf(await createOAuthClient(orgId, 'Busy', []));
    const calm = await tokenOf(await createOAuthClient(orgId, 'Calm', []));
    const moveClock = holdClock();
    for (let index = 0; index < DEFAULT_MCP_CLIENT_RATE; index++)
      expect((await post(busy, JSON.stringify(ping))).status).toBe(200);

    const refused = await post(busy, JSON.stringify(ping));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json()).toMatchObject({ message: expect.stringMatching(/too many requests/i) });
    // Every request counts, whatever it carries: a batch is refused for the rate before it is read.
    expect((await post(busy, '[]')).status).toBe(429);

    expect((await post(calm, JSON.stringify(ping))).status).toBe(200);
    moveClock(1);
    expect((await post(busy, JSON.stringify(ping))).status).toBe(200);
  });

  it("counts a request while its token's standing is read, and a revoked token's request is still 401", async () => {
    const { calls, result } = await countRequests(() => post(token, JSON.stringify(ping)));
    expect(result.status).toBe(200);
    expect(calls.map((call) => call.operation)).toEqual(['GetItem', 'BatchGetItem', 'UpdateItem']);
    const [, standing, count] = calls;
    expect(sentTogether(standing!, count!)).toBe(true);

    const doomed = await createOAuthClient(orgId, 'Doomed', []);
    const doomedToken = await tokenOf(doomed);
    await revokeOAuthClient(orgId, doomed.clientId);
    const revoked = await post(doomedToken, JSON.stringify(ping));
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toMatch(/invalid_token/);
  });

  it('holds a client to the rate the operator arranged for it', async () => {
    const slow = await tokenOf(await createOAuthClient(orgId, 'Arranged', [], { rateLimit: 2 }));
    holdClock();
    expect((await post(slow, JSON.stringify(ping))).status).toBe(200);
    expect((await post(slow, JSON.stringify(ping))).status).toBe(200);
    expect((await post(slow, JSON.stringify(ping))).status).toBe(429);
  });
});
