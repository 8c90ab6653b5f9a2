import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { approveAssistant } from '#domain/assistant-grants.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { codeChallengeOf, issueAuthorizationCode } from '#domain/oauth-grants.ts';
import { registerClient } from '#domain/oauth-registration.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { signedInMember } from '../../../infra/local/dashboard-member.ts';
import {
  clientCredentialsToken,
  providerWebhookOf,
  type RequestTarget,
} from '../../../infra/local/route-requests.ts';
import type { LocalStack } from '../../../infra/local/stack.ts';
import { apiClient } from '../../support/api-client.ts';
import { smallDocument } from '../../support/fixtures.ts';
import { importFor } from '../../support/import.ts';
import { emulatedConnection, linkedEmulatorCampaign } from '../../support/provider-workspace.ts';
import { waitFor } from '../../support/wait.ts';
import type { WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The two organizations of the tenant-isolation test: A, whose every resource
 * B aims at, and B. A's copy of the fixture has its own words and ids, so
 * anything of A's in an answer to B is recognizable.
 */

type Json = Record<string, unknown>;

/** A's ids are the fixture's shifted by this much, so B (which keeps the fixture's ids) never shares one. */
export const A_SHIFT = 7000;
export const A_REDIRECT = 'https://alpha-assistant.example/callback';
export const B_REDIRECT = 'https://beta-assistant.example/callback';

/**
 * A's copy of the fixture has each of these words replaced by a word nothing
 * else contains (not B's copy, which is the fixture as it is, nor the static
 * documents, whose examples use the fixture's names). None of A's words may
 * appear in an answer to B unless B's request named it.
 */
export const A_WORDS: [string, string][] = [
  ['Fintech CFOs', 'Quasar Treasurers'],
  ['Retail Ops', 'Zephyr Logistics'],
  ['acme', 'zorblax'],
  ['Acme', 'Zorblax'],
  ['globex', 'quuxco'],
  ['initech', 'vandelay'],
  ['Ann', 'Ysolde'],
  ['Bob', 'Bartholomew'],
  ['bob', 'bartholomew'],
  ['cy@', 'cyprian@'],
  ['Dee Ray', 'Delphine Rayburn'],
  ['in/dee', 'in/delphine'],
  ['Hello', 'Salutations'],
  ['Interested!', 'Intrigued indeed!'],
  ['rep@seller.com', 'envoy@zorblax-sales.example'],
  ['Following up', 'Circling back'],
  ['Let us connect', 'Shall we confer'],
  ['CFO', 'Purser'],
  ['job-1', 'job-zq1'],
];

export type Document = ReturnType<typeof smallDocument>;

/** Every id field moved by `shift`, so A shares no id with B (which keeps the fixture's). */
function shiftIds(value: unknown, shift: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shiftIds(item, shift));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name,
      typeof field === 'number' && (name === 'id' || name.endsWith('_id'))
        ? field + shift
        : shiftIds(field, shift),
    ]),
  );
}

/** The fixture with A's words and ids, and a second job opening so that A's job search has a cursor. */
function documentOfA(): Document {
  const renamed = A_WORDS.reduce(
    (text, [word, replacement]) => text.replaceAll(word, replacement),
    JSON.stringify(smallDocument()),
  );
  const document = shiftIds(JSON.parse(renamed), A_SHIFT) as Document;
  const jobs = document.jobs as Json[];
  jobs.push({
    ...jobs[0]!,
    id: 'job-zq2',
    url: 'https://zorblax.com/jobs/2',
    first_seen_at: '2026-03-01T00:00:00.000Z',
  });
  return document;
}

export const A_IDS = {
  campaigns: [101, 102].map((id) => id + A_SHIFT),
  sequences: [201, 202, 203].map((id) => id + A_SHIFT),
  accounts: [301, 302, 303].map((id) => id + A_SHIFT),
  assignments: [501, 502, 503, 504].map((id) => id + A_SHIFT),
  messages: [601, 602, 603].map((id) => id + A_SHIFT),
};
export const A_DOMAINS = ['zorblax.com', 'quuxco.io', 'vandelay.com'];
export const A_EMAILS = ['ysolde@zorblax.com', 'bartholomew@quuxco.io', 'cyprian@vandelay.com'];
/** B's own account domain (the fixture's). */
export const B_DOMAIN = 'acme.com';

export interface Tenant {
  orgId: number;
  apiKey: string;
  /** A key of scope `read`: every API-key probe is sent with it too. */
  readKey: string;
  client: { clientId: string; clientSecret: string };
  accessToken: string;
  webhookId: number;
  webhookSecret: string;
  deliveryId: number;
  eventId: string;
  /** A Smartlead connection, its webhook URL, and the provider API key it was created with. */
  providerConnectionId: number;
  providerWebhookUrl: string;
  providerApiKey: string;
  /** A campaign of that workspace, to which the tenant's first (Smartlead) sequence is linked. */
  providerCampaignId: string;
  /** An admin signed in to the dashboard. */
  member: RequestTarget['member'];
}

export interface Tenants {
  a: Tenant & {
    jobCursor: number;
    code: string;
    verifier: string;
    /** An assistant A connected: a registered public client A approved, and its refresh token. */
    assistantClientId: string;
    refreshToken: string;
  };
  b: Tenant;
}

/**
 * An organization with the document imported, a webhook with one delivered test event, an OAuth
 * client and token, and a provider connection.
 */
async function tenant(
  stack: LocalStack,
  hookUrl: string,
  name: string,
  document: Document,
  redirect: string,
): Promise<Tenant> {
  const { orgId } = await createOrganization(name);
  const { apiKey } = await createApiKey(orgId);
  await createApiKey(orgId);
  const { apiKey: readKey } = await createApiKey(orgId, { scope: 'read' });
  await importFor(orgId, document);
  const api = apiClient(stack, apiKey);
  const webhook = (await api.post('/webhooks', { url: hookUrl, events: ['first_touch'] })).body as {
    id: number;
    secret: string;
  };
  const test = (await api.post(`/webhooks/${webhook.id}/test`)).body as {
    delivery: { id: number; event_id: string };
  };
  await waitFor(
    async () => {
      const log = (await api.get(`/webhooks/${webhook.id}/deliveries`)).body as {
        data: { status: string }[];
      };
      expect(log.data.map((delivery) => delivery.status)).toEqual(['delivered']);
    },
    { what: `${name}'s test event` },
  );
  // B's MCP probes are sent back to back, faster than the default per-client rate.
  const client = await createOAuthClient(orgId, 'Assistant', [redirect], { rateLimit: MAX_MCP_CLIENT_RATE });
  const providerApiKey = `${name.split(' ')[0]!.toLowerCase()}-smartlead-api-key`;
  const connection = await api.post(
    '/provider-connections',
    await emulatedConnection(stack, 'smartlead', providerApiKey),
  );
  expect(connection.status, connection.text).toBe(200);
  const providerCampaignId = await linkedEmulatorCampaign(stack, {
    orgId,
    provider: 'smartlead',
    apiKey: providerApiKey,
    connectionId: connection.body.id as number,
    sequenceId: (document.campaigns as { sequences: { id: number }[] }[])[0]!.sequences[0]!.id,
  });
  return {
    orgId,
    apiKey,
    readKey,
    client,
    accessToken: await clientCredentialsToken(stack.apiUrl, client),
    webhookId: webhook.id,
    webhookSecret: webhook.secret,
    deliveryId: test.delivery.id,
    eventId: test.delivery.event_id,
    providerConnectionId: connection.body.id as number,
    providerWebhookUrl: connection.body.webhook_url as string,
    providerApiKey,
    providerCampaignId,
    member: await signedInMember(orgId, 'admin'),
  };
}

/** A and B on `stack`, their webhooks pointing at `receiver` (`/alpha-hook`, `/beta-hook`). */
export async function createTenants(stack: LocalStack, receiver: WebhookReceiver): Promise<Tenants> {
  const alpha = await tenant(stack, `${receiver.url}/alpha-hook`, 'Alpha Fintech', documentOfA(), A_REDIRECT);
  const b = await tenant(stack, `${receiver.url}/beta-hook`, 'Beta Retail', smallDocument(), B_REDIRECT);
  const page = (await apiClient(stack, alpha.apiKey).get('/jobs/zorblax.com?take=1')).body as {
    next: number;
  };
  expect(page.next).toBeGreaterThan(0);
  const verifier = 'v'.repeat(43);
  const code = await issueAuthorizationCode({
    orgId: alpha.orgId,
    clientId: alpha.client.clientId,
    resource: `${stack.apiUrl}/mcp`,
    scope: MCP_SCOPE,
    redirectUri: A_REDIRECT,
    codeChallenge: codeChallengeOf(verifier),
  });
  const assistant = await registerClient(
    {
      redirectUris: [A_REDIRECT],
      clientName: 'Alpha Assistant',
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
    },
    'tenant-isolation',
  );
  await approveAssistant({
    orgId: alpha.orgId,
    clientId: assistant.clientId,
    clientName: 'Alpha Assistant',
    kind: 'dynamic',
    approvedBy: 'owner@zorblax.example',
  });
  const assistantCode = await issueAuthorizationCode({
    orgId: alpha.orgId,
    clientId: assistant.clientId,
    resource: `${stack.apiUrl}/mcp`,
    scope: MCP_SCOPE,
    redirectUri: A_REDIRECT,
    codeChallenge: codeChallengeOf(verifier),
  });
  const redeemed = await fetch(`${stack.apiUrl}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: assistantCode,
      redirect_uri: A_REDIRECT,
      code_verifier: verifier,
      client_id: assistant.clientId,
    }),
  });
  expect(redeemed.status).toBe(200);
  const { refresh_token: refreshToken } = (await redeemed.json()) as { refresh_token: string };
  return {
    a: {
      ...alpha,
      jobCursor: page.next,
      code,
      verifier,
      assistantClientId: assistant.clientId,
      refreshToken,
    },
    b,
  };
}

/**
 * B's credentials aimed at B's own fixture resources (campaign 101, its email
 * sequence 201, assignment 501, acme.com): the request catalogue's target,
 * which the probes point at A's resources one field at a time.
 */
export function targetOfB(stack: LocalStack, receiver: WebhookReceiver, b: Tenant): RequestTarget {
  return {
    apiUrl: stack.apiUrl,
    apiKey: b.apiKey,
    campaignId: 101,
    sequenceId: 201,
    assignmentId: 501,
    accountId: 301,
    accountDomain: B_DOMAIN,
    jobDomain: B_DOMAIN,
    webhookId: b.webhookId,
    deliveryId: b.deliveryId,
    webhookUrl: `${receiver.url}/beta-second`,
    oauth: { ...b.client, redirectUri: B_REDIRECT, accessToken: b.accessToken },
    docsAsset: REFERENCE_ASSETS[0]!,
    providerConnectionId: b.providerConnectionId,
    providerAccount: {
      provider: 'smartlead',
      baseUrl: stack.providerApiUrls.smartlead,
      apiKey: b.providerApiKey,
    },
    providerWebhook: providerWebhookOf(b.providerWebhookUrl),
    providerCampaignId: b.providerCampaignId,
    member: b.member,
  };
}

// ---------------------------------------------------------------------------
// What of A must stay as it is

/**
 * A's REST reads, as text: every resource B aims at, and its eligibility and analytics. Its provider
 * connection's reads hold its webhook URL (so its token is still the current one) and its unmatched
 * events (none: nothing B sent became A's).
 */
export async function restViewOfA(stack: LocalStack, a: Tenants['a']): Promise<string[]> {
  const reads: [string, string, unknown?][] = [
    ['GET', '/campaigns'],
    ['GET', '/analytics/overview'],
    ['GET', '/webhooks'],
    ['GET', `/webhooks/${a.webhookId}`],
    ['GET', `/webhooks/${a.webhookId}/deliveries`],
    ['GET', '/jobs/zorblax.com'],
    ['GET', '/provider-connections'],
    ['GET', `/provider-connections/${a.providerConnectionId}`],
    ['GET', `/provider-connections/${a.providerConnectionId}/unmatched`],
    ['GET', `/sequences/${A_IDS.sequences[0]}/provider-link`],
    ...A_IDS.campaigns.flatMap((id): [string, string][] => [
      ['GET', `/campaigns/${id}`],
      ['GET', `/campaigns/${id}/accounts`],
      ['GET', `/campaigns/${id}/contacts`],
      ['GET', `/campaigns/${id}/messages`],
    ]),
    ...A_IDS.accounts.map((id): [string, string] => ['GET', `/accounts?id=${id}`]),
    ...A_DOMAINS.map((domain): [string, string] => ['GET', `/accounts?domain=${domain}`]),
    ['POST', `/campaigns/${A_IDS.campaigns[0]}/raw/contacts/check-eligibility`, { emails: A_EMAILS }],
  ];
  const api = apiClient(stack, a.apiKey);
  const view: string[] = [];
  for (const [method, path, body] of reads) {
    const { status, text } = await api.call(method, path, body);
    view.push(`${method} ${path} → ${status} ${text}`);
  }
  return view;
}

/** A's items in the table (its organization's partitions), as text; sets as sorted arrays. */
export async function rawItemsOfA(a: Tenants['a']): Promise<string[]> {
  const items: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) {
      const pk = String(item.pk);
      if (pk === `ORG#${a.orgId}` || pk.startsWith(`ORG#${a.orgId}#`))
        items.push(JSON.stringify(item, (_, value) => (value instanceof Set ? [...value].sort() : value)));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort();
}
