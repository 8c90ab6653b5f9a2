import { expect } from 'vitest';
import { READ_ONLY_KEY_MESSAGE } from '#api/http/endpoint.ts';
import { providerWebhookOf } from '../../../infra/local/route-requests.ts';
import { contractMembers } from '../../support/problem.ts';
import { expectNoWriteCredential } from '../../support/write-credentials.ts';
import type { Probe, ProbeContext, ProbeRequest } from './probes.ts';
import { A_IDS, A_WORDS } from './tenants.ts';

/** How a probe's answer is judged: its status and shape, and never a trace of A. */

type Json = Record<string, unknown>;

/** A's secrets and ids: never in an answer to B, unless B's request named them (a 404 may say which id it did not find). */
function leaksOfA(ctx: ProbeContext, answer: string, request: ProbeRequest): string[] {
  const { a } = ctx;
  const asked = `${decodeURIComponent(request.url)} ${request.body ?? ''}`;
  const named = (text: string, value: string) => text.toLowerCase().includes(value.toLowerCase());
  const texts = [
    ...A_WORDS.map(([, word]) => word),
    a.webhookSecret,
    a.eventId,
    a.client.clientId,
    a.client.clientSecret,
    a.accessToken,
    a.assistantClientId,
    a.refreshToken,
    a.apiKey,
    `${ctx.receiverUrl}/alpha-hook`,
    a.providerApiKey,
    // The credential of A's provider webhook URL.
    providerWebhookOf(a.providerWebhookUrl).token,
  ];
  const number = (id: number) => new RegExp(`(?<![0-9])${id}(?![0-9])`);
  const ids = Object.values(A_IDS).flat();
  return [
    ...texts.filter((text) => named(answer, text) && !named(asked, text)),
    ...ids.filter((id) => number(id).test(answer) && !number(id).test(asked)).map(String),
  ];
}

/**
 * Whether the probe is sent with one of B's read-only credentials (its read key, its MCP token), whose
 * answers never carry a write credential of B's (docs/decisions.md, Read-only credentials).
 */
function readOnlyCredential(ctx: ProbeContext, request: ProbeRequest): boolean {
  const headers = request.headers ?? {};
  return headers['x-api-key'] === ctx.b.readKey || headers.authorization === `Bearer ${ctx.b.accessToken}`;
}

/** B's own write credentials. */
const writeCredentialsOfB = ({ b }: ProbeContext): string[] => [
  b.apiKey,
  b.webhookSecret,
  b.client.clientSecret,
  b.providerApiKey,
  providerWebhookOf(b.providerWebhookUrl).token,
];

/** The `request_id` of an endpoint's error body, if the answer is one. */
function requestIdOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as Json | null)?.request_id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

export async function check(ctx: ProbeContext, probe: Probe): Promise<void> {
  const response = await fetch(`${ctx.target.apiUrl}${probe.request.url}`, {
    method: probe.request.method,
    headers: probe.request.headers,
    body: probe.request.body,
    redirect: 'manual',
  });
  const text = await response.text();
  const context = `${probe.what}: ${probe.request.method} ${probe.request.url} → ${response.status} ${text.slice(0, 400)}`;
  // An error's request_id is the gateway's random id, no data of A (its digits may happen to spell an id of A).
  const requestId = requestIdOf(text);
  const judged = requestId ? text.replaceAll(requestId, '') : text;
  expect(
    leaksOfA(ctx, `${judged} ${response.headers.get('location') ?? ''}`, probe.request),
    context,
  ).toEqual([]);
  if (readOnlyCredential(ctx, probe.request))
    expectNoWriteCredential(judged, `${context}: a write credential`, writeCredentialsOfB(ctx));
  const body = () => JSON.parse(text) as Json;
  const rpcResult = () =>
    body().result as { isError?: boolean; structuredContent?: Json; content: { text: string }[] };
  switch (probe.expect.kind) {
    case 'hidden':
    case 'denied':
    case 'refused': {
      const status = { hidden: 404, denied: 401, refused: 400 }[probe.expect.kind];
      expect(response.status, context).toBe(status);
      // `{message}`, which an endpoint's error follows with `errors` and `request_id` (docs/decisions.md),
      // and the RFC 9457 members every error body carries (checked by contractMembers).
      expect(
        Object.keys(contractMembers(response.status, JSON.stringify(body()))).filter(
          (key) => key !== 'errors' && key !== 'request_id',
        ),
        context,
      ).toEqual(['message']);
      return;
    }
    case 'own': {
      expect(response.status, context).toBe(200);
      if (probe.expect.check) await probe.expect.check(body());
      return;
    }
    case 'toolHidden': {
      expect(response.status, context).toBe(200);
      expect(rpcResult().isError, context).toBe(true);
      expect(rpcResult().content[0]?.text, context).toMatch(/not found|Invalid cursor|is not a sequence of/);
      return;
    }
    case 'toolOwn': {
      expect(response.status, context).toBe(200);
      expect(rpcResult().isError ?? false, context).toBe(false);
      probe.expect.check?.(rpcResult().structuredContent!);
      return;
    }
    case 'oauth': {
      expect(response.status, context).toBe(probe.expect.status);
      expect(body().error, context).toBe(probe.expect.error);
      return;
    }
    case 'created': {
      expect(response.status, context).toBe(201);
      expect(body().client_id, context).toEqual(expect.stringMatching(/^mcp_/));
      return;
    }
    case 'readOnly': {
      expect(response.status, context).toBe(403);
      expect(body().message, context).toBe(READ_ONLY_KEY_MESSAGE);
      return;
    }
    case 'page': {
      expect(response.status, context).toBe(probe.expect.status);
      expect(response.headers.get('content-type'), context).toMatch(/^text\/html/);
      expect(response.headers.get('location'), context).toBeNull();
      return;
    }
  }
}
