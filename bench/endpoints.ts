import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { routes } from '#definitions/routes.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { getCampaign } from '#domain/campaigns.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { codeChallengeOf } from '#domain/oauth-grants.ts';
import { createOrganization } from '#domain/organizations.ts';
import { MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import { clientCredentialsToken } from '../test/support/oauth.ts';
import { CONCURRENCY } from './load.ts';

/**
 * What the bench sends to each endpoint of the route manifest. Each endpoint
 * has a request generator: reads repeat one request, writes vary theirs so
 * every request does real work without conflicting with the others in flight
 * (new contacts for a push, replies and secret rotations spread over many
 * assignments and subscriptions, a subscription created per request in
 * organizations with room for it).
 */

/** One HTTP request, relative to the stack's base URL. */
export interface BenchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface EndpointSpec {
  /** As shown in the report, e.g. `GET /public/v1/campaigns/{id}`. */
  name: string;
  /** The route of the manifest it exercises. */
  route: string;
  /** The next request (called once per request sent, and for warm-up and capture). */
  next: () => BenchRequest;
  expectedStatus?: number;
  /** A fixed number of requests instead of the fixed duration (writes bounded by a limit); read after `prepare`. */
  amount?: () => number;
  /** Runs before the endpoint's warm-up (finds what earlier endpoints created). */
  prepare?: () => Promise<void>;
  /** Sees every response (collects ids that later endpoints use). */
  onResponse?: (status: number, body: string) => void;
  /** The endpoint queues work (mail, webhook deliveries): the bench waits for the queues to drain after it. */
  queuesWork?: boolean;
  /** What the request does, for the report. */
  note?: string;
}

/** The data the bench's requests point at. */
export interface BenchFixtures {
  apiUrl: string;
  receiverUrl: string;
  demo: {
    orgId: number;
    apiKey: string;
    campaignId: number;
    emailSequenceId: number;
    accountDomain: string;
    jobDomain: string;
    replyAssignmentIds: number[];
  };
  hooks: { apiKey: string; webhookIds: number[] };
  /** Organizations with room for subscriptions, for the create endpoint. */
  creators: string[];
  oauth: { clientId: string; clientSecret: string; redirectUri: string; mcpToken: string };
  docsAssetPath: string | null;
}

const REDIRECT_URI = 'https://assistant.bench.example/callback';
/** Subscriptions of the organization whose webhooks are read, updated, rotated and tested. */
const HOOKS = MAX_WEBHOOKS_PER_ORGANIZATION - 1;
/** Replies the reply endpoint sends (each one is an email the local mail sender delivers afterwards). */
const REPLIES = 240;
/** Organizations whose room the create endpoint fills (and the delete endpoint empties again). */
const CREATOR_ORGANIZATIONS = 24;

const json = (apiKey: string, extra: Record<string, string> = {}) => ({
  'x-api-key': apiKey,
  'content-type': 'application/json',
  ...extra,
});

async function call(apiUrl: string, request: BenchRequest): Promise<{ status: number; text: string }> {
  const response = await fetch(`${apiUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
  });
  return { status: response.status, text: await response.text() };
}

async function callJson(apiUrl: string, request: BenchRequest): Promise<Record<string, unknown>> {
  const { status, text } = await call(apiUrl, request);
  if (status !== 200) throw new Error(`${request.method} ${request.path}: ${status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Sends one request of a spec (warm-up, capture) and checks its status. */
export async function send(apiUrl: string, spec: EndpointSpec): Promise<void> {
  const request = spec.next();
  const { status, text } = await call(apiUrl, request);
  spec.onResponse?.(status, text);
  if (status !== (spec.expectedStatus ?? 200)) {
    throw new Error(
      `${spec.name}: ${request.method} ${request.path} answered ${status} ${text.slice(0, 300)}`,
    );
  }
}

/** Creates what the requests point at: subscriptions, organizations, an OAuth client and its token. */
export async function prepareFixtures(
  apiUrl: string,
  receiverUrl: string,
  demo: { orgId: number; apiKey: string },
): Promise<BenchFixtures> {
  const get = (path: string) =>
    callJson(apiUrl, { method: 'GET', path, headers: { 'x-api-key': demo.apiKey } });
  const campaigns = (await get('/public/v1/campaigns')).campaigns as { id: number }[];
  const details = await Promise.all(
    campaigns.map(async (campaign) => ({
      id: campaign.id,
      contacts: (await get(`/public/v1/campaigns/${campaign.id}/contacts?take=100`)).data as {
        assignment_id: number;
        contact: { email: string | null };
      }[],
    })),
  );
  const campaignId = campaigns[0]!.id;
  // The API shows a campaign's sequence ids only; the push targets the email one.
  const { sequences } = await getCampaign(demo.orgId, campaignId);
  const accounts = (await get(`/public/v1/campaigns/${campaignId}/accounts?take=100`)).accounts as {
    domain: string;
  }[];
  let jobDomain = accounts[0]!.domain;
  for (const account of accounts) {
    const jobs = (await get(`/public/v1/jobs/${encodeURIComponent(account.domain)}?take=1`))
      .jobs as unknown[];
    if (jobs.length > 0) {
      jobDomain = account.domain;
      break;
    }
  }

  const { orgId: hooksOrg } = await createOrganization('Bench Hooks');
  const { apiKey: hooksKey } = await createApiKey(hooksOrg);
  const webhookIds: number[] = [];
  for (let index = 0; index < HOOKS; index++) {
    const created = await callJson(apiUrl, {
      method: 'POST',
      path: '/public/v1/webhooks',
      headers: json(hooksKey),
      body: JSON.stringify({ url: `${receiverUrl}/bench/hooks/${index}`, events: ['first_touch'] }),
    });
    webhookIds.push(created.id as number);
  }
  const creators: string[] = [];
  for (let index = 0; index < CREATOR_ORGANIZATIONS; index++) {
    const { orgId } = await createOrganization(`Bench Creator ${index}`);
    creators.push((await createApiKey(orgId)).apiKey);
  }

  // The bench measures /mcp at full speed, not the default per-client rate (shared/definitions/mcp-limits.ts).
  const client = await createOAuthClient(demo.orgId, 'Bench Assistant', [REDIRECT_URI], {
    rateLimit: MAX_MCP_CLIENT_RATE,
  });
  const accessToken = await clientCredentialsToken(apiUrl, client);

  return {
    apiUrl,
    receiverUrl,
    demo: {
      ...demo,
      campaignId,
      emailSequenceId: sequences.find((sequence) => sequence.channel === 'email')!.id,
      accountDomain: accounts[0]!.domain,
      jobDomain,
      replyAssignmentIds: details.flatMap((detail) =>
        detail.contacts.filter((entry) => entry.contact.email !== null).map((entry) => entry.assignment_id),
      ),
    },
    hooks: { apiKey: hooksKey, webhookIds },
    creators,
    oauth: { ...client, redirectUri: REDIRECT_URI, mcpToken: accessToken },
    docsAssetPath: await docsAsset(apiUrl),
  };
}

/** A file the reference page loads from `/docs/…`, when the manifest has that route. */
async function docsAsset(apiUrl: string): Promise<string | null> {
  if (!routes.some((route) => route.path === '/docs')) return null;
  const { status, text } = await call(apiUrl, { method: 'GET', path: '/docs', headers: {} });
  if (status !== 200) return null;
  const match = /(?:href|src)="[^"]*?\/(docs\/[^"?#/]+)"/.exec(text);
  return match ? `/${match[1]}` : null;
}

/** Round-robin over `values`: consecutive requests (those in flight together) never share a value. */
function cycle<T>(values: readonly T[]): () => T {
  let next = 0;
  return () => values[next++ % values.length]!;
}

/** Every endpoint's spec, in the order the bench runs them (reads, then writes, creates before deletes). */
export function endpointSpecs(fixtures: BenchFixtures, runId: string): EndpointSpec[] {
  const { demo, hooks, oauth } = fixtures;
  const api = '/public/v1';
  const demoGet = (path: string) => () => ({
    method: 'GET',
    path: `${api}${path}`,
    headers: { 'x-api-key': demo.apiKey },
  });
  const campaign = `/campaigns/${demo.campaignId}`;
  const hook = cycle(hooks.webhookIds);
  const reply = cycle(demo.replyAssignmentIds);
  const excluded = cycle(Array.from({ length: 20 }, (_, index) => `exclude-${index}.bench.example`));
  let pushed = 0;
  const testDeliveries: { webhookId: number; deliveryId: number }[] = [];
  const created: { apiKey: string; id: number }[] = [];
  let creates = 0;
  const authorizeQuery = new URLSearchParams({
    response_type: 'code',
    client_id: oauth.clientId,
    redirect_uri: oauth.redirectUri,
    code_challenge: codeChallengeOf('bench-verifier-'.padEnd(60, 'v')),
    code_challenge_method: 'S256',
    state: 'bench',
    resource: `${fixtures.apiUrl}/mcp`,
  });
  // A fresh object per request: autocannon writes the content length into the headers it is given.
  const form = () => ({ 'content-type': 'application/x-www-form-urlencoded' });
  const hooksGet = (path: (id: number) => string) => () => ({
    method: 'GET',
    path: `${api}${path(hook())}`,
    headers: { 'x-api-key': hooks.apiKey },
  });

  const specs: EndpointSpec[] = [
    { name: 'GET /public/v1/auth', route: 'auth', next: demoGet('/auth') },
    { name: 'GET /public/v1/campaigns', route: 'list-campaigns', next: demoGet('/campaigns') },
    { name: 'GET /public/v1/campaigns/{id}', route: 'get-campaign', next: demoGet(campaign) },
    {
      name: 'GET /public/v1/campaigns/{id}/accounts',
      route: 'list-campaign-accounts',
      next: demoGet(`${campaign}/accounts`),
      note: 'first page (25)',
    },
    {
      name: 'GET /public/v1/campaigns/{id}/contacts',
      route: 'list-campaign-contacts',
      next: demoGet(`${campaign}/contacts`),
      note: 'first page (25)',
    },
    {
      name: 'GET /public/v1/campaigns/{id}/contacts?status=replied',
      route: 'list-campaign-contacts',
      next: demoGet(`${campaign}/contacts?status=replied`),
    },
    {
      name: 'GET /public/v1/campaigns/{id}/messages',
      route: 'list-campaign-messages',
      next: demoGet(`${campaign}/messages`),
      note: 'first page (25)',
    },
    {
      name: 'GET /public/v1/accounts?domain=',
      route: 'lookup-account',
      next: demoGet(`/accounts?domain=${encodeURIComponent(demo.accountDomain)}`),
    },
    {
      name: 'GET /public/v1/jobs/{domain}',
      route: 'search-jobs',
      next: demoGet(`/jobs/${encodeURIComponent(demo.jobDomain)}`),
    },
    {
      name: 'GET /public/v1/analytics/overview',
      route: 'get-analytics-overview',
      next: demoGet('/analytics/overview'),
    },
    {
      name: 'POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility',
      route: 'check-eligibility',
      next: () => ({
        method: 'POST',
        path: `${api}${campaign}/raw/contacts/check-eligibility`,
        headers: json(demo.apiKey),
        body: JSON.stringify({
          emails: Array.from({ length: 10 }, (_, index) => `check${index}@eligibility.bench.example`),
        }),
      }),
      note: '10 emails',
    },
    {
      name: 'GET /public/v1/webhooks',
      route: 'list-webhooks',
      next: () => ({ method: 'GET', path: `${api}/webhooks`, headers: { 'x-api-key': hooks.apiKey } }),
      note: `${HOOKS} subscriptions`,
    },
    { name: 'GET /public/v1/webhooks/{id}', route: 'get-webhook', next: hooksGet((id) => `/webhooks/${id}`) },
    {
      name: 'GET /public/v1/webhooks/{id}/deliveries',
      route: 'list-webhook-deliveries',
      next: hooksGet((id) => `/webhooks/${id}/deliveries`),
    },
    {
      name: 'POST /mcp (tools/call get_campaign)',
      route: 'mcp',
      next: () => ({
        method: 'POST',
        path: '/mcp',
        headers: {
          authorization: `Bearer ${oauth.mcpToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_campaign', arguments: { campaign_id: demo.campaignId } },
        }),
      }),
    },
    ...[
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
    ].map(
      (path): EndpointSpec => ({
        name: `GET ${path}`,
        route: routes.find((route) => route.path === path)!.name,
        next: () => ({ method: 'GET', path, headers: {} }),
      }),
    ),
    {
      name: 'GET /oauth/authorize',
      route: 'oauth-authorize',
      next: () => ({ method: 'GET', path: `/oauth/authorize?${authorizeQuery}`, headers: {} }),
      note: 'consent page',
    },
    ...(routes.some((route) => route.path === '/openapi.json')
      ? [
          {
            name: 'GET /openapi.json',
            route: 'openapi',
            next: () => ({ method: 'GET', path: '/openapi.json', headers: {} }),
          },
        ]
      : []),
    ...(routes.some((route) => route.path === '/docs')
      ? [{ name: 'GET /docs', route: 'docs', next: () => ({ method: 'GET', path: '/docs', headers: {} }) }]
      : []),
    ...(fixtures.docsAssetPath
      ? [
          {
            name: 'GET /docs/{asset}',
            route: 'docs-asset',
            next: () => ({ method: 'GET', path: fixtures.docsAssetPath!, headers: {} }),
            note: fixtures.docsAssetPath,
          },
        ]
      : []),
    // Writes.
    {
      name: 'POST /public/v1/campaigns/{id}/raw/contacts',
      route: 'push-raw-contacts',
      next: () => ({
        method: 'POST',
        path: `${api}${campaign}/raw/contacts`,
        headers: json(demo.apiKey),
        body: JSON.stringify({
          sequenceId: demo.emailSequenceId,
          contacts: Array.from({ length: 5 }, () => {
            const index = pushed++;
            return {
              email: `push${index}.${runId}@push${index % 50}.bench.example`,
              firstName: `Push${index}`,
              variables: { opener: `Hello ${index}` },
            };
          }),
        }),
      }),
      note: '5 new contacts each',
    },
    {
      name: 'POST /public/v1/assignments/{id}/reply',
      route: 'reply-to-assignment',
      next: () => ({
        method: 'POST',
        path: `${api}/assignments/${reply()}/reply`,
        headers: json(demo.apiKey),
        body: JSON.stringify({ body: 'Thanks, talk soon.', plain_text: true }),
      }),
      queuesWork: true,
      // A fixed number: the local mail sender sends one reply at a time, so a longer run only means a longer drain.
      amount: () => REPLIES,
      note: `${REPLIES} replies over ${demo.replyAssignmentIds.length} assignments; each mailed to the SMTP sink`,
    },
    {
      name: 'POST /public/v1/accounts/exclude',
      route: 'exclude-account',
      next: () => ({
        method: 'POST',
        path: `${api}/accounts/exclude`,
        headers: json(demo.apiKey),
        body: JSON.stringify({ company_url: excluded() }),
      }),
      note: 'over 20 domains (idempotent)',
    },
    {
      name: 'PATCH /public/v1/webhooks/{id}',
      route: 'update-webhook',
      next: () => ({
        method: 'PATCH',
        path: `${api}/webhooks/${hook()}`,
        headers: json(hooks.apiKey),
        body: JSON.stringify({ events: ['first_touch', 'positive_reply'] }),
      }),
    },
    {
      name: 'POST /public/v1/webhooks/{id}/rotate-secret',
      route: 'rotate-webhook-secret',
      next: () => ({
        method: 'POST',
        path: `${api}/webhooks/${hook()}/rotate-secret`,
        headers: { 'x-api-key': hooks.apiKey },
      }),
    },
    {
      name: 'POST /public/v1/webhooks/{id}/test',
      route: 'test-webhook',
      next: () => ({
        method: 'POST',
        path: `${api}/webhooks/${hook()}/test`,
        headers: { 'x-api-key': hooks.apiKey },
      }),
      onResponse: (status, body) => {
        if (status !== 200) return;
        const { delivery } = JSON.parse(body) as { delivery: { id: number; webhook_id: number } };
        testDeliveries.push({ webhookId: delivery.webhook_id, deliveryId: delivery.id });
      },
      queuesWork: true,
      note: 'each delivered to the local receiver',
    },
    {
      name: 'POST /public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      route: 'redeliver-webhook-delivery',
      next: (() => {
        // The deliveries the test endpoint made, taken once: the list keeps growing in the sustained run, and a
        // round robin over a growing list would keep landing on the same delivery (a 409 when two overlap).
        let delivery: (() => { webhookId: number; deliveryId: number }) | undefined;
        return () => {
          delivery ??= cycle([...testDeliveries]);
          const { webhookId, deliveryId } = delivery();
          return {
            method: 'POST',
            path: `${api}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`,
            headers: { 'x-api-key': hooks.apiKey },
          };
        };
      })(),
      queuesWork: true,
      note: 'over the test deliveries; each delivered again',
    },
    {
      name: 'POST /public/v1/webhooks',
      route: 'create-webhook',
      next: () => {
        // Fills each organization up to the limit, one after the other.
        const apiKey =
          fixtures.creators[Math.floor(creates / MAX_WEBHOOKS_PER_ORGANIZATION)] ?? fixtures.creators[0]!;
        creates += 1;
        return {
          method: 'POST',
          path: `${api}/webhooks`,
          headers: json(apiKey),
          body: JSON.stringify({ url: `${fixtures.receiverUrl}/bench/created`, events: ['positive_reply'] }),
        };
      },
      // What is left of the organizations' room, less the requests autocannon builds ahead and never sends.
      amount: () => fixtures.creators.length * MAX_WEBHOOKS_PER_ORGANIZATION - creates - CONCURRENCY - 1,
      note: `up to ${MAX_WEBHOOKS_PER_ORGANIZATION} in each of ${fixtures.creators.length} organizations`,
    },
    {
      name: 'DELETE /public/v1/webhooks/{id}',
      route: 'delete-webhook',
      prepare: async () => {
        for (const apiKey of fixtures.creators) {
          const { webhooks } = await callJson(fixtures.apiUrl, {
            method: 'GET',
            path: `${api}/webhooks`,
            headers: { 'x-api-key': apiKey },
          });
          for (const { id } of webhooks as { id: number }[]) created.push({ apiKey, id });
        }
      },
      next: () => {
        const target = created.shift();
        return {
          method: 'DELETE',
          path: `${api}/webhooks/${target?.id ?? 0}`,
          headers: { 'x-api-key': target?.apiKey ?? fixtures.creators[0]! },
        };
      },
      // Requests autocannon builds ahead and never sends still take a subscription off the list.
      amount: () => created.length - CONCURRENCY - 1,
      note: 'the subscriptions just created',
    },
    {
      name: 'POST /oauth/authorize',
      route: 'oauth-authorize-submit',
      next: () => ({
        method: 'POST',
        path: '/oauth/authorize',
        headers: form(),
        body: new URLSearchParams({
          ...Object.fromEntries(authorizeQuery),
          decision: 'approve',
          api_key: demo.apiKey,
        }).toString(),
      }),
      expectedStatus: 302,
      note: 'consent approved: a code and a redirect',
    },
    {
      name: 'POST /oauth/token',
      route: 'oauth-token',
      next: () => ({
        method: 'POST',
        path: '/oauth/token',
        headers: form(),
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: oauth.clientId,
          client_secret: oauth.clientSecret,
        }).toString(),
      }),
      note: 'client credentials',
    },
  ];
  return specs;
}
