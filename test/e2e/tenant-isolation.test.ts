import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#definitions/routes.ts';
import { listAssistantGrants, revokeAssistantGrant } from '#domain/assistant-grants.ts';
import { providerWebhookOf, validRequest } from '../../infra/local/route-requests.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient, send } from '../support/api-client.ts';
import { startTestStack } from '../support/local-stack.ts';
import { settle } from '../support/settle.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { check } from './tenant-isolation/checks.ts';
import { matrix, mcpProbes, type Probe, type ProbeContext, tool } from './tenant-isolation/probes.ts';
import { createTenants, rawItemsOfA, restViewOfA, targetOfB } from './tenant-isolation/tenants.ts';

/**
 * Tenant isolation: organization B, with its own key, OAuth client and token,
 * aims at every resource of organization A through every route of the
 * manifest, REST and MCP. A's campaigns, accounts (by id and by domain),
 * assignments, sequences, job cursor, webhook, deliveries, OAuth client,
 * authorization code and an assistant's refresh token are each named in B's requests; every answer is 404
 * (401 for credentials, 400 where a body or cursor names something that is
 * not B's, as documented), never a byte of A's data; and A is byte-identical
 * afterwards, through its REST reads and its raw items. Routes that act on the
 * caller's organization by nature (exclusions, job search, the dry run and
 * push with A's addresses) act on B only. A's provider connection is hidden
 * from B like its other resources, and a provider webhook URL mixing A's and
 * B's organization, connection and token is refused: what B posts to its own
 * URL, even about A's contacts, becomes B's alone, and A's URL still works.
 *
 * Every probe sent with B's API key is sent with B's read key too: a route that
 * writes is 403 whatever it names (no answer tells A's ids from unknown ones),
 * a route that reads answers as it does the read-write key; no answer to the
 * read key or B's MCP token holds a write credential of B's (a webhook secret,
 * a provider webhook URL, an API key).
 *
 * A route added to the manifest without a matrix entry fails its test, and so
 * does an MCP tool without probes. The tenants are set up in
 * tenant-isolation/tenants.ts; the probes, each a route's valid request from
 * the catalogue (infra/local/route-requests.ts) aimed at A, are in
 * tenant-isolation/probes.ts.
 */

let stack: LocalStack;
let receiver: WebhookReceiver;
let ctx: ProbeContext;
let before: { rest: string[]; raw: string[] };

/** The probe with B's read key in place of its read-write key, or null when it is not sent with B's key. */
function withReadKey(probe: Probe, route: (typeof routes)[number]): Probe | null {
  const headers = probe.request.headers ?? {};
  if (route.auth !== 'apiKey' || headers['x-api-key'] !== ctx.b.apiKey) return null;
  return {
    what: `${probe.what}, with B's read key`,
    request: { ...probe.request, headers: { ...headers, 'x-api-key': ctx.b.readKey } },
    expect: route.scope === 'read-write' ? { kind: 'readOnly' } : probe.expect,
  };
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  const tenants = await createTenants(stack, receiver);
  ctx = { ...tenants, target: targetOfB(stack, receiver, tenants.b), receiverUrl: receiver.url };
  await settle(stack, receiver);
  before = { rest: await restViewOfA(stack, ctx.a), raw: await rawItemsOfA(ctx.a) };
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe('tenant isolation', () => {
  it('has a matrix entry for every route of the manifest', () => {
    const entries = matrix(ctx);
    expect(routes.filter((route) => !(route.name in entries)).map((route) => route.name)).toEqual([]);
  });

  it('has probes for every MCP tool', async () => {
    const { method, headers } = tool(ctx, 'list_campaigns', {});
    const response = await fetch(`${stack.apiUrl}/mcp`, {
      method,
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const { result } = (await response.json()) as { result: { tools: { name: string }[] } };
    const probed = mcpProbes(ctx);
    expect(result.tools.map((listed) => listed.name).filter((name) => !probed[name]?.length)).toEqual([]);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path} (${route.name})`, route] as const))(
    "%s with B's credentials, and its read key: 404 or 401 for A's resources, B's own data otherwise, never A's",
    async (_title, route) => {
      const probes = matrix(ctx)[route.name]?.();
      expect(probes, `no tenant-isolation entry for ${route.name}`).toBeDefined();
      expect(probes!.length).toBeGreaterThan(0);
      for (const probe of probes!) {
        const readOnly = withReadKey(probe, route);
        if (readOnly) await check(ctx, readOnly);
        await check(ctx, probe);
      }
    },
  );

  it("neither lists nor revokes the assistants A connected for B: A's is as unknown to B as any", async () => {
    expect((await listAssistantGrants(ctx.b.orgId)).map((grant) => grant.clientId)).not.toContain(
      ctx.a.assistantClientId,
    );
    /** How revoking the client for B fails, the client's id left out. */
    const refusal = (clientId: string) =>
      revokeAssistantGrant(ctx.b.orgId, clientId).then(
        () => null,
        (error: Error) => ({ name: error.name, message: error.message.replace(clientId, '<client>') }),
      );
    const unknown = await refusal('mcp_unknownclient0000');
    expect(unknown).toMatchObject({ name: 'AssistantGrantNotFound' });
    expect(await refusal(ctx.a.assistantClientId)).toEqual(unknown);
  });

  it('leaves A byte-identical: its REST reads and its items', async () => {
    // Every queue drained: the provider webhooks B got accepted are recorded (as B's) by now.
    await settle(stack, receiver);
    expect(await restViewOfA(stack, ctx.a)).toEqual(before.rest);
    expect(await rawItemsOfA(ctx.a)).toEqual(before.raw);
    // No mail was sent for any of A's assignments.
    expect(stack.smtp.messages).toEqual([]);
    const unmatched = await apiClient(stack, ctx.a.apiKey).get(
      `/provider-connections/${ctx.a.providerConnectionId}/unmatched`,
    );
    expect(unmatched.body).toEqual({ data: [], next: null });
  });

  // After the comparison above, which this changes: A's provider webhook URL was neither rotated nor
  // deleted by B, so a payload posted to it is still accepted, and kept as A's.
  it("still takes A's provider webhooks at A's URL", async () => {
    const request = validRequest('receive-provider-webhook', {
      ...ctx.target,
      providerWebhook: providerWebhookOf(ctx.a.providerWebhookUrl),
    });
    const answer = await send(stack.apiUrl, request);
    expect(answer.status, answer.text).toBe(200);
    const api = apiClient(stack, ctx.a.apiKey);
    await waitFor(
      async () => {
        const page = await api.get(`/provider-connections/${ctx.a.providerConnectionId}/unmatched`);
        expect(page.body.data).toHaveLength(1);
      },
      { what: "A's unmatched event" },
    );
  });
});
