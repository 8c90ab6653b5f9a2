import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyImport, validateImport } from '#admin/import.ts';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { routes } from '#definitions/routes.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { codeChallengeOf, issueAuthorizationCode } from '#domain/oauth-grants.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { expectedOverview, modelOf } from '../support/expected.ts';
import { smallDocument } from '../support/fixtures.ts';
import { startTestStack } from '../support/local-stack.ts';
import { clientCredentialsToken } from '../support/oauth.ts';
import { countRequests } from '../support/request-counter.ts';

/**
 * Tenant isolation: organization B, with its own key, OAuth client and token,
 * aims at every resource of organization A through every route of the
 * manifest, REST and MCP. A's campaigns, accounts (by id and by domain),
 * assignments, sequences, job cursor, webhook, deliveries, OAuth client and
 * authorization code are each named in B's requests; every answer is 404
 * (401 for credentials, 400 where a body or cursor names something that is
 * not B's, as documented), never a byte of A's data; and A is byte-identical
 * afterwards, through its REST reads and its raw items. Routes that act on the
 * caller's organization by nature (exclusions, job search, the dry run and
 * push with A's addresses) act on B only.
 *
 * A route added to the manifest without a matrix entry fails its test, and so
 * does an MCP tool without probes.
 */

type Route = (typeof routes)[number];
type RouteName = Route['name'];
type Json = Record<string, unknown>;

/** A's ids are the fixture's shifted by this much, so B (which keeps the fixture's ids) never shares one. */
const A_SHIFT = 7000;
const A_REDIRECT = 'https://alpha-assistant.example/callback';
const B_REDIRECT = 'https://beta-assistant.example/callback';

/**
 * A's copy of the fixture has each of these words replaced by a word nothing
 * else contains (not B's copy, which is the fixture as it is, nor the static
 * documents, whose examples use the fixture's names). None of A's words may
 * appear in an answer to B unless B's request named it.
 */
const A_WORDS: [string, string][] = [
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

type Document = ReturnType<typeof smallDocument>;

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

const A_IDS = {
  campaigns: [101, 102].map((id) => id + A_SHIFT),
  sequences: [201, 202, 203].map((id) => id + A_SHIFT),
  accounts: [301, 302, 303].map((id) => id + A_SHIFT),
  assignments: [501, 502, 503, 504].map((id) => id + A_SHIFT),
  messages: [601, 602, 603].map((id) => id + A_SHIFT),
};
const A_DOMAINS = ['zorblax.com', 'quuxco.io', 'vandelay.com'];
const A_EMAILS = ['ysolde@zorblax.com', 'bartholomew@quuxco.io', 'cyprian@vandelay.com'];
/** B's own account domain (the fixture's). */
const B_DOMAIN = 'acme.com';

interface Tenant {
  orgId: number;
  apiKey: string;
  client: { clientId: string; clientSecret: string };
  accessToken: string;
  webhookId: number;
  webhookSecret: string;
  deliveryId: number;
  eventId: string;
}

let stack: LocalStack;
let receiver: Server;
let receiverUrl: string;
let a: Tenant & { jobCursor: number; code: string; verifier: string };
let b: Tenant;

async function api(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}/public/v1${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the stack's background work (relay, dispatcher) makes no more DynamoDB calls. */
async function settle(): Promise<void> {
  for (let quiet = 0, rounds = 0; quiet < 2; rounds++) {
    if (rounds > 100) throw new Error('the local stack does not settle');
    quiet = (await countRequests(() => sleep(200))).count === 0 ? quiet + 1 : 0;
  }
}

/** An organization with the document imported, a webhook with one delivered test event, an OAuth client and token. */
async function tenant(name: string, document: Document, hook: string, redirect: string): Promise<Tenant> {
  const { orgId } = await createOrganization(name);
  const { apiKey } = await createApiKey(orgId);
  await createApiKey(orgId);
  const validated = validateImport(document);
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  await applyImport(orgId, validated.document);
  const webhook = JSON.parse(
    (await api(apiKey, 'POST', '/webhooks', { url: `${receiverUrl}/${hook}`, events: ['first_touch'] })).text,
  ) as { id: number; secret: string };
  const test = JSON.parse((await api(apiKey, 'POST', `/webhooks/${webhook.id}/test`)).text) as {
    delivery: { id: number; event_id: string };
  };
  for (let attempt = 0; ; attempt++) {
    const log = JSON.parse((await api(apiKey, 'GET', `/webhooks/${webhook.id}/deliveries`)).text) as {
      data: { status: string }[];
    };
    if (log.data.every((delivery) => delivery.status === 'delivered')) break;
    if (attempt > 100) throw new Error(`${name}'s test event was not delivered`);
    await sleep(100);
  }
  // B's MCP probes are sent back to back, faster than the default per-client rate.
  const client = await createOAuthClient(orgId, 'Assistant', [redirect], { rateLimit: MAX_MCP_CLIENT_RATE });
  return {
    orgId,
    apiKey,
    client,
    accessToken: await clientCredentialsToken(stack.apiUrl, client),
    webhookId: webhook.id,
    webhookSecret: webhook.secret,
    deliveryId: test.delivery.id,
    eventId: test.delivery.event_id,
  };
}

// ---------------------------------------------------------------------------
// What of A must stay as it is

/** A's REST reads, as text: every resource B aims at, and its eligibility and analytics. */
async function restViewOfA(): Promise<string[]> {
  const reads: [string, string, unknown?][] = [
    ['GET', '/campaigns'],
    ['GET', '/analytics/overview'],
    ['GET', '/webhooks'],
    ['GET', `/webhooks/${a.webhookId}`],
    ['GET', `/webhooks/${a.webhookId}/deliveries`],
    ['GET', '/jobs/zorblax.com'],
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
  const view: string[] = [];
  for (const [method, path, body] of reads) {
    const { status, text } = await api(a.apiKey, method, path, body);
    view.push(`${method} ${path} → ${status} ${text}`);
  }
  return view;
}

/** A's items in the table (its organization's partitions), as text; sets as sorted arrays. */
async function rawItemsOfA(): Promise<string[]> {
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

let before: { rest: string[]; raw: string[] };

beforeAll(async () => {
  stack = await startTestStack();
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const alpha = await tenant('Alpha Fintech', documentOfA(), 'alpha-hook', A_REDIRECT);
  b = await tenant('Beta Retail', smallDocument(), 'beta-hook', B_REDIRECT);
  const page = JSON.parse((await api(alpha.apiKey, 'GET', '/jobs/zorblax.com?take=1')).text) as {
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
  a = { ...alpha, jobCursor: page.next, code, verifier };
  await settle();
  before = { rest: await restViewOfA(), raw: await rawItemsOfA() };
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

// ---------------------------------------------------------------------------
// Probes: what B sends, and what it must get

interface ProbeRequest {
  method: string;
  /** Path and query, encoded. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * - `hidden`: 404 `{message}`, as for something that does not exist;
 * - `denied`: 401 (credentials that are not B's);
 * - `refused`: a documented 400 `{message}` (a cursor or sequence that is not a position or part of B's);
 * - `own`: 200, acting on or reading B's data only (`check` says how);
 * - `toolHidden` / `toolOwn`: the MCP counterparts (a tool error, or a result of B's data);
 * - `oauth`: an RFC 6749 error; `page`: the consent form again or an error page, never a redirect with a code.
 */
type Expectation =
  | { kind: 'hidden' }
  | { kind: 'denied' }
  | { kind: 'refused' }
  | { kind: 'own'; check?: (body: Json) => void | Promise<void> }
  | { kind: 'toolHidden' }
  | { kind: 'toolOwn'; check?: (content: Json) => void }
  | { kind: 'oauth'; status: number; error: string }
  | { kind: 'page'; status: number };

interface Probe {
  what: string;
  request: ProbeRequest;
  expect: Expectation;
}

const json = (value: unknown) => JSON.stringify(value);

/** A REST request with B's key. */
const asB = (method: string, path: string, body?: unknown): ProbeRequest => ({
  method,
  url: `/public/v1${path}`,
  headers: { 'x-api-key': b.apiKey, ...(body !== undefined && { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : json(body),
});

const hidden = (what: string, request: ProbeRequest): Probe => ({
  what,
  request,
  expect: { kind: 'hidden' },
});
const own = (what: string, request: ProbeRequest, check?: (body: Json) => void | Promise<void>): Probe => ({
  what,
  request,
  expect: { kind: 'own', check },
});

/** Each of A's campaigns on a campaign route. */
const eachCampaignOfA = (path: (id: number) => string, method = 'GET', body?: unknown) =>
  A_IDS.campaigns.map((id) => hidden(`A's campaign ${id}`, asB(method, path(id), body)));

/** A tools/call of B's token. */
const tool = (name: string, args: Json): ProbeRequest => ({
  method: 'POST',
  url: '/mcp',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${b.accessToken}`,
  },
  body: json({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

/** What B may look up with A's identifiers through each MCP tool. */
function mcpProbes(): Record<string, Probe[]> {
  const toolHidden = (what: string, name: string, args: Json): Probe => ({
    what,
    request: tool(name, args),
    expect: { kind: 'toolHidden' },
  });
  const toolOwn = (what: string, name: string, args: Json, check?: (content: Json) => void): Probe => ({
    what,
    request: tool(name, args),
    expect: { kind: 'toolOwn', check },
  });
  const [firstCampaign] = A_IDS.campaigns;
  return {
    list_campaigns: [
      toolOwn('its campaigns', 'list_campaigns', {}, (content) =>
        expect((content.campaigns as { id: number }[]).map((campaign) => campaign.id)).toEqual([101, 102]),
      ),
    ],
    get_analytics_overview: [
      toolOwn('its overview', 'get_analytics_overview', {}, (content) =>
        expect(content).toEqual(expectedOverview(modelOf(smallDocument()))),
      ),
    ],
    get_campaign: A_IDS.campaigns.map((id) =>
      toolHidden(`A's campaign ${id}`, 'get_campaign', { campaign_id: id }),
    ),
    list_campaign_accounts: A_IDS.campaigns.map((id) =>
      toolHidden(`A's campaign ${id}`, 'list_campaign_accounts', { campaign_id: id }),
    ),
    list_campaign_contacts: A_IDS.campaigns.map((id) =>
      toolHidden(`A's campaign ${id}`, 'list_campaign_contacts', { campaign_id: id, status: 'scheduled' }),
    ),
    lookup_account: [
      ...A_IDS.accounts.map((id) => toolHidden(`A's account ${id}`, 'lookup_account', { id })),
      ...A_DOMAINS.map((domain) => toolHidden(`A's domain ${domain}`, 'lookup_account', { domain })),
      toolHidden(`its account with A's campaign`, 'lookup_account', {
        domain: B_DOMAIN,
        campaign_id: firstCampaign,
      }),
    ],
    search_jobs: [
      toolOwn(`A's domain in its own jobs`, 'search_jobs', { domain: 'zorblax.com' }, (content) =>
        expect(content).toEqual({ domain: 'zorblax.com', next: 0, jobs: [] }),
      ),
      toolHidden(`A's cursor`, 'search_jobs', { domain: 'zorblax.com', cursor: a.jobCursor }),
    ],
    check_eligibility: [
      toolHidden(`A's campaign`, 'check_eligibility', { campaign_id: firstCampaign, emails: A_EMAILS }),
      toolHidden(`A's sequence in its campaign`, 'check_eligibility', {
        campaign_id: 101,
        emails: ['cyprian@vandelay.com'],
        sequenceId: A_IDS.sequences[0],
      }),
      toolOwn(
        `A's contact in its own campaign`,
        'check_eligibility',
        { campaign_id: 101, emails: ['cyprian@vandelay.com'] },
        (content) =>
          expect((content as { results: unknown }).results).toEqual([
            { email: 'cyprian@vandelay.com', eligible: true, reasons: [] },
          ]),
      ),
    ],
  };
}

/** B's attempts on A, route by route; a route missing here is a type error and fails its test. */
function matrix(): Record<RouteName, () => Probe[]> {
  const [firstCampaign] = A_IDS.campaigns;
  const webhookOfA = `/webhooks/${a.webhookId}`;
  const stolenKeys = [`${b.orgId}.${a.apiKey.split('.')[1]}`, `${a.orgId}.${b.apiKey.split('.')[1]}`];
  const mcpError = (what: string, headers: Record<string, string>): Probe => ({
    what,
    request: {
      method: 'POST',
      url: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    },
    expect: { kind: 'denied' },
  });
  const token = (parameters: Record<string, string>, expectation: Expectation, what: string): Probe => ({
    what,
    request: {
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(parameters).toString(),
    },
    expect: expectation,
  });
  const consent = {
    response_type: 'code',
    client_id: a.client.clientId,
    code_challenge: codeChallengeOf('w'.repeat(43)),
    code_challenge_method: 'S256',
  };
  const documentProbe = (path: string) => (): Probe[] => [own('the document', { method: 'GET', url: path })];
  return {
    auth: () => [
      own('its own key', asB('GET', '/auth'), (body) => expect(body).toEqual({ signed_in: true })),
      ...stolenKeys.map(
        (key): Probe => ({
          what: `a key mixing the organizations: ${key.slice(0, 8)}…`,
          request: { method: 'GET', url: '/public/v1/auth', headers: { 'x-api-key': key } },
          expect: { kind: 'denied' },
        }),
      ),
    ],
    'list-campaigns': () => [
      own('its campaigns', asB('GET', '/campaigns'), (body) =>
        expect((body.campaigns as { id: number }[]).map((campaign) => campaign.id)).toEqual([101, 102]),
      ),
    ],
    'get-campaign': () => eachCampaignOfA((id) => `/campaigns/${id}`),
    'list-campaign-accounts': () => eachCampaignOfA((id) => `/campaigns/${id}/accounts?take=100`),
    'list-campaign-contacts': () => [
      ...eachCampaignOfA((id) => `/campaigns/${id}/contacts`),
      ...eachCampaignOfA((id) => `/campaigns/${id}/contacts?status=replied`),
    ],
    'list-campaign-messages': () => eachCampaignOfA((id) => `/campaigns/${id}/messages`),
    'push-raw-contacts': () => [
      ...eachCampaignOfA((id) => `/campaigns/${id}/raw/contacts`, 'POST', {
        contacts: A_EMAILS.map((email) => ({ email, variables: { stolen: 'yes' } })),
        skipIneligible: false,
        triggerIntake: true,
      }),
      {
        what: `A's sequence in its campaign`,
        request: asB('POST', '/campaigns/101/raw/contacts', {
          contacts: [{ email: 'bartholomew@quuxco.io' }],
          sequenceId: A_IDS.sequences[0],
        }),
        expect: { kind: 'refused' },
      },
      own(
        `A's contact into its own campaign`,
        asB('POST', '/campaigns/101/raw/contacts', {
          contacts: [{ email: 'bartholomew@quuxco.io' }],
        }),
        (body) => expect(body).toMatchObject({ created: 1, updated: 0, skipped: 0, errors: [] }),
      ),
    ],
    'check-eligibility': () => [
      ...eachCampaignOfA((id) => `/campaigns/${id}/raw/contacts/check-eligibility`, 'POST', {
        emails: A_EMAILS,
      }),
      {
        what: `A's sequence in its campaign`,
        request: asB('POST', '/campaigns/101/raw/contacts/check-eligibility', {
          emails: ['cyprian@vandelay.com'],
          sequenceId: A_IDS.sequences[1],
        }),
        expect: { kind: 'refused' },
      },
      // In A, cyprian@vandelay.com bounced and vandelay.com is excluded; in B the address is unknown.
      own(
        `A's contact against its own campaign`,
        asB('POST', '/campaigns/101/raw/contacts/check-eligibility', {
          emails: ['cyprian@vandelay.com'],
        }),
        (body) =>
          expect(body.results).toEqual([{ email: 'cyprian@vandelay.com', eligible: true, reasons: [] }]),
      ),
    ],
    'reply-to-assignment': () =>
      A_IDS.assignments.map((id) =>
        hidden(
          `A's assignment ${id}`,
          asB('POST', `/assignments/${id}/reply`, {
            body: 'Stolen thread',
            to: 'attacker@beta.example',
          }),
        ),
      ),
    'lookup-account': () => [
      ...A_IDS.accounts.map((id) => hidden(`A's account ${id}`, asB('GET', `/accounts?id=${id}`))),
      ...A_DOMAINS.map((domain) => hidden(`A's domain ${domain}`, asB('GET', `/accounts?domain=${domain}`))),
      hidden(
        `its account with A's campaign`,
        asB('GET', `/accounts?domain=${B_DOMAIN}&icpId=${firstCampaign}`),
      ),
      hidden(
        `A's account id with its domain`,
        asB('GET', `/accounts?domain=${B_DOMAIN}&id=${A_IDS.accounts[0]}`),
      ),
    ],
    'exclude-account': () => [
      own(
        `A's domain on its own list`,
        asB('POST', '/accounts/exclude', { company_url: 'https://www.zorblax.com' }),
        async (body) => {
          expect(body).toEqual({ success: true });
          // It acts on B: the domain is now excluded for B (A's list is compared at the end).
          const check = await api(b.apiKey, 'POST', '/campaigns/101/raw/contacts/check-eligibility', {
            emails: ['ysolde@zorblax.com'],
          });
          expect(JSON.parse(check.text).results).toEqual([
            { email: 'ysolde@zorblax.com', eligible: false, reasons: ['globally_excluded'] },
          ]);
        },
      ),
    ],
    'search-jobs': () => [
      own(`A's domain in its own jobs`, asB('GET', '/jobs/zorblax.com'), (body) =>
        expect(body).toEqual({ domain: 'zorblax.com', next: 0, jobs: [] }),
      ),
      {
        what: `A's cursor on A's domain`,
        request: asB('GET', `/jobs/zorblax.com?cursor=${a.jobCursor}`),
        expect: { kind: 'refused' },
      },
      {
        what: `A's cursor on its domain`,
        request: asB('GET', `/jobs/${B_DOMAIN}?cursor=${a.jobCursor}`),
        expect: { kind: 'refused' },
      },
    ],
    'get-analytics-overview': () => [
      // The push above left one pending assignment, which no overview figure counts.
      own('its overview', asB('GET', '/analytics/overview'), (body) =>
        expect(body).toEqual(expectedOverview(modelOf(smallDocument()))),
      ),
    ],
    'list-webhooks': () => [
      own('its webhooks', asB('GET', '/webhooks'), (body) =>
        expect((body.webhooks as { id: number }[]).map((webhook) => webhook.id)).toEqual([b.webhookId]),
      ),
    ],
    'create-webhook': () => [
      own(
        'a webhook of its own',
        asB('POST', '/webhooks', { url: `${receiverUrl}/beta-second`, events: ['positive_reply'] }),
        (body) =>
          expect(body).toMatchObject({ url: `${receiverUrl}/beta-second`, events: ['positive_reply'] }),
      ),
    ],
    'get-webhook': () => [hidden(`A's webhook`, asB('GET', webhookOfA))],
    'update-webhook': () => [
      hidden(`disabling A's webhook`, asB('PATCH', webhookOfA, { enabled: false })),
      hidden(
        `redirecting A's webhook`,
        asB('PATCH', webhookOfA, { url: `${receiverUrl}/stolen`, events: ['positive_reply'] }),
      ),
    ],
    'delete-webhook': () => [hidden(`A's webhook`, asB('DELETE', webhookOfA))],
    'test-webhook': () => [hidden(`A's webhook`, asB('POST', `${webhookOfA}/test`))],
    'rotate-webhook-secret': () => [hidden(`A's webhook`, asB('POST', `${webhookOfA}/rotate-secret`))],
    'list-webhook-deliveries': () => [
      hidden(`A's webhook`, asB('GET', `${webhookOfA}/deliveries`)),
      own(
        `its webhook after A's delivery`,
        asB('GET', `/webhooks/${b.webhookId}/deliveries?cursor=${a.deliveryId}`),
        (body) =>
          expect(
            (body.data as { webhook_id: number }[]).every((delivery) => delivery.webhook_id === b.webhookId),
          ).toBe(true),
      ),
    ],
    'redeliver-webhook-delivery': () => [
      hidden(
        `A's delivery of A's webhook`,
        asB('POST', `${webhookOfA}/deliveries/${a.deliveryId}/redeliver`),
      ),
      hidden(
        `A's delivery under its webhook`,
        asB('POST', `/webhooks/${b.webhookId}/deliveries/${a.deliveryId}/redeliver`),
      ),
      hidden(
        `its delivery under A's webhook`,
        asB('POST', `${webhookOfA}/deliveries/${b.deliveryId}/redeliver`),
      ),
    ],
    mcp: () => [
      mcpError('no token', {}),
      mcpError(`A's API key as a bearer token`, { authorization: `Bearer ${a.apiKey}` }),
      mcpError(`its API key`, { 'x-api-key': b.apiKey }),
      ...Object.values(mcpProbes()).flat(),
    ],
    'oauth-protected-resource': documentProbe('/.well-known/oauth-protected-resource'),
    'oauth-protected-resource-mcp': documentProbe('/.well-known/oauth-protected-resource/mcp'),
    'oauth-authorization-server': documentProbe('/.well-known/oauth-authorization-server'),
    'oauth-authorize': () => [
      {
        what: `A's client with its redirect URI`,
        request: {
          method: 'GET',
          url: `/oauth/authorize?${new URLSearchParams({ ...consent, redirect_uri: B_REDIRECT })}`,
        },
        expect: { kind: 'page', status: 400 },
      },
    ],
    'oauth-authorize-submit': () => [
      {
        what: `A's client approved with its API key`,
        request: {
          method: 'POST',
          url: '/oauth/authorize',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            ...consent,
            redirect_uri: A_REDIRECT,
            decision: 'approve',
            api_key: b.apiKey,
          }).toString(),
        },
        expect: { kind: 'page', status: 401 },
      },
      {
        what: `A's client approved to its redirect URI`,
        request: {
          method: 'POST',
          url: '/oauth/authorize',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            ...consent,
            redirect_uri: B_REDIRECT,
            decision: 'approve',
            api_key: b.apiKey,
          }).toString(),
        },
        expect: { kind: 'page', status: 400 },
      },
    ],
    'oauth-token': () => [
      token(
        {
          grant_type: 'client_credentials',
          client_id: b.client.clientId,
          client_secret: a.client.clientSecret,
        },
        { kind: 'oauth', status: 401, error: 'invalid_client' },
        `its client with A's secret`,
      ),
      token(
        {
          grant_type: 'client_credentials',
          client_id: a.client.clientId,
          client_secret: b.client.clientSecret,
        },
        { kind: 'oauth', status: 401, error: 'invalid_client' },
        `A's client with its secret`,
      ),
      // A code is redeemed once, by the client it was issued to: A's is refused, and stays A's to redeem.
      token(
        {
          grant_type: 'authorization_code',
          client_id: b.client.clientId,
          client_secret: b.client.clientSecret,
          code: a.code,
          redirect_uri: A_REDIRECT,
          code_verifier: a.verifier,
        },
        { kind: 'oauth', status: 400, error: 'invalid_grant' },
        `A's authorization code`,
      ),
    ],
    openapi: documentProbe('/openapi.json'),
    docs: documentProbe('/docs'),
    'docs-asset': () =>
      REFERENCE_ASSETS.map((asset) => own(`the asset ${asset}`, { method: 'GET', url: `/docs/${asset}` })),
  };
}

// ---------------------------------------------------------------------------
// Checks

/** A's secrets and ids: never in an answer to B, unless B's request named them (a 404 may say which id it did not find). */
function leaksOfA(answer: string, request: ProbeRequest): string[] {
  const asked = `${decodeURIComponent(request.url)} ${request.body ?? ''}`;
  const named = (text: string, value: string) => text.toLowerCase().includes(value.toLowerCase());
  const texts = [
    ...A_WORDS.map(([, word]) => word),
    a.webhookSecret,
    a.eventId,
    a.client.clientId,
    a.client.clientSecret,
    a.accessToken,
    a.apiKey,
    `${receiverUrl}/alpha-hook`,
  ];
  const number = (id: number) => new RegExp(`(?<![0-9])${id}(?![0-9])`);
  const ids = Object.values(A_IDS).flat();
  return [
    ...texts.filter((text) => named(answer, text) && !named(asked, text)),
    ...ids.filter((id) => number(id).test(answer) && !number(id).test(asked)).map(String),
  ];
}

async function check(probe: Probe): Promise<void> {
  const response = await fetch(`${stack.apiUrl}${probe.request.url}`, {
    method: probe.request.method,
    headers: probe.request.headers,
    body: probe.request.body,
    redirect: 'manual',
  });
  const text = await response.text();
  const context = `${probe.what}: ${probe.request.method} ${probe.request.url} → ${response.status} ${text.slice(0, 400)}`;
  expect(leaksOfA(`${text} ${response.headers.get('location') ?? ''}`, probe.request), context).toEqual([]);
  const body = () => JSON.parse(text) as Json;
  const rpcResult = () =>
    body().result as { isError?: boolean; structuredContent?: Json; content: { text: string }[] };
  switch (probe.expect.kind) {
    case 'hidden':
    case 'denied':
    case 'refused': {
      const status = { hidden: 404, denied: 401, refused: 400 }[probe.expect.kind];
      expect(response.status, context).toBe(status);
      expect(Object.keys(body()), context).toEqual(['message']);
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
    case 'page': {
      expect(response.status, context).toBe(probe.expect.status);
      expect(response.headers.get('content-type'), context).toMatch(/^text\/html/);
      expect(response.headers.get('location'), context).toBeNull();
      return;
    }
  }
}

describe('tenant isolation', () => {
  it('has a matrix entry for every route of the manifest', () => {
    const entries = matrix();
    expect(routes.filter((route) => !(route.name in entries)).map((route) => route.name)).toEqual([]);
  });

  it('has probes for every MCP tool', async () => {
    const { method, headers } = tool('list_campaigns', {});
    const response = await fetch(`${stack.apiUrl}/mcp`, {
      method,
      headers,
      body: json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const { result } = (await response.json()) as { result: { tools: { name: string }[] } };
    const probed = mcpProbes();
    expect(result.tools.map((listed) => listed.name).filter((name) => !probed[name]?.length)).toEqual([]);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path} (${route.name})`, route] as const))(
    "%s with B's credentials: 404 or 401 for A's resources, B's own data otherwise, never A's",
    async (_title, route) => {
      const probes = matrix()[route.name]?.();
      expect(probes, `no tenant-isolation entry for ${route.name}`).toBeDefined();
      expect(probes!.length).toBeGreaterThan(0);
      for (const probe of probes!) await check(probe);
    },
  );

  it('leaves A byte-identical: its REST reads and its items', async () => {
    await settle();
    expect(await restViewOfA()).toEqual(before.rest);
    expect(await rawItemsOfA()).toEqual(before.raw);
    // No mail was sent for any of A's assignments.
    expect(stack.smtp.messages).toEqual([]);
  });
});
