import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { routes } from '#definitions/routes.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { getCampaign } from '#domain/campaigns.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION } from '#domain/provider-connections.ts';
import { MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import type { Provider } from '#schemas/import.ts';
import { signedInMember } from '../infra/local/dashboard-member.ts';
import {
  clientCredentialsToken,
  providerWebhookOf,
  type RequestTarget,
  type RouteName,
  validRequest,
} from '../infra/local/route-requests.ts';
import { CONCURRENCY } from './load.ts';

/**
 * What the bench sends to each endpoint of the route manifest: the route's
 * valid request from the catalogue (infra/local/route-requests.ts), the one
 * the bad-input and tenant-isolation tests vary too. Reads repeat it; writes
 * vary what must differ so every request does real work without conflicting
 * with the others in flight (new contacts for a push, replies and secret
 * rotations spread over many assignments and subscriptions, URL rotations over
 * many provider connections, a subscription and a provider connection created
 * per request in organizations with room for them).
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
    accountId: number;
    accountDomain: string;
    jobDomain: string;
    replyAssignmentIds: number[];
  };
  hooks: { apiKey: string; webhookIds: number[] };
  /**
   * Provider connections: the demo organization's one, whose webhook URL the inbound endpoint is sent
   * to (never rotated), and an organization's many, read and rotated.
   */
  providers: {
    /** The emulator workspace every bench connection is made with. */
    account: RequestTarget['providerAccount'];
    demoConnectionId: number;
    demoWebhook: RequestTarget['providerWebhook'];
    /** A campaign of that workspace (the link routes are not measured: the demo's sequences are not Instantly's). */
    campaignId: string;
    apiKey: string;
    connectionIds: number[];
  };
  /** Organizations with room for subscriptions and provider connections, for the create endpoints. */
  creators: string[];
  oauth: { clientId: string; clientSecret: string; redirectUri: string; mcpToken: string };
  docsAssetPath: string | null;
  /** An admin of the demo organization signed in to the dashboard. */
  member: RequestTarget['member'];
}

const REDIRECT_URI = 'https://assistant.bench.example/callback';
/** Subscriptions of the organization whose webhooks are read, updated, rotated and tested. */
const HOOKS = MAX_WEBHOOKS_PER_ORGANIZATION - 1;
/** Replies the reply endpoint sends (each one is an email the local mail sender delivers afterwards). */
const REPLIES = 240;
/** Connections of the organization whose provider connections are read and rotated. */
const PROVIDER_CONNECTIONS = MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION - 1;
/** Organizations whose room the create endpoints fill (and the delete endpoints empty again). */
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
  providerApiUrls: Record<Provider, string>,
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
    id: number;
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
  // Connecting asks the provider (here its emulator) whether it accepts the key: one workspace serves
  // every connection, Instantly's, whose emulated limit (100 requests a second) the creates stay under.
  const account = {
    provider: 'instantly' as const,
    baseUrl: providerApiUrls.instantly,
    apiKey: 'bench-provider-key',
  };
  const workspace = await fetch(new URL('/_emulator/workspaces', account.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: account.apiKey }),
  });
  if (!workspace.ok) throw new Error(`The emulator's workspace: ${workspace.status}`);
  const connect = (apiKey: string) =>
    callJson(apiUrl, {
      method: 'POST',
      path: '/public/v1/provider-connections',
      headers: json(apiKey),
      body: JSON.stringify({
        provider: account.provider,
        api_key: account.apiKey,
        base_url: account.baseUrl,
      }),
    });
  const demoConnection = await connect(demo.apiKey);
  const campaign = await fetch(new URL('/_emulator/campaigns', account.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: account.apiKey, name: 'Bench campaign' }),
  });
  if (!campaign.ok) throw new Error(`The emulator's campaign: ${campaign.status}`);
  const providerCampaignId = String(((await campaign.json()) as { id: string | number }).id);
  const { orgId: providersOrg } = await createOrganization('Bench Providers');
  const { apiKey: providersKey } = await createApiKey(providersOrg);
  const connectionIds: number[] = [];
  for (let index = 0; index < PROVIDER_CONNECTIONS; index++)
    connectionIds.push((await connect(providersKey)).id as number);
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
      accountId: accounts[0]!.id,
      accountDomain: accounts[0]!.domain,
      jobDomain,
      replyAssignmentIds: details.flatMap((detail) =>
        detail.contacts.filter((entry) => entry.contact.email !== null).map((entry) => entry.assignment_id),
      ),
    },
    hooks: { apiKey: hooksKey, webhookIds },
    providers: {
      account,
      demoConnectionId: demoConnection.id as number,
      demoWebhook: providerWebhookOf(demoConnection.webhook_url as string),
      campaignId: providerCampaignId,
      apiKey: providersKey,
      connectionIds,
    },
    creators,
    oauth: { ...client, redirectUri: REDIRECT_URI, mcpToken: accessToken },
    docsAssetPath: await docsAsset(apiUrl),
    member: await signedInMember(demo.orgId, 'admin'),
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
  const { demo, hooks, oauth, providers } = fixtures;
  /** The demo organization's resources, for the catalogue's requests. */
  const base: RequestTarget = {
    apiUrl: fixtures.apiUrl,
    apiKey: demo.apiKey,
    campaignId: demo.campaignId,
    sequenceId: demo.emailSequenceId,
    assignmentId: demo.replyAssignmentIds[0]!,
    accountId: demo.accountId,
    accountDomain: demo.accountDomain,
    jobDomain: demo.jobDomain,
    webhookId: hooks.webhookIds[0]!,
    deliveryId: 0,
    webhookUrl: `${fixtures.receiverUrl}/bench/created`,
    oauth: {
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      redirectUri: oauth.redirectUri,
      accessToken: oauth.mcpToken,
    },
    docsAsset: fixtures.docsAssetPath?.replace(/^\/docs\//, '') ?? '',
    providerConnectionId: providers.demoConnectionId,
    providerAccount: providers.account,
    providerWebhook: providers.demoWebhook,
    providerCampaignId: providers.campaignId,
    member: fixtures.member,
  };
  /**
   * The route's valid request (a fresh object each time: autocannon writes the content length into the
   * headers it is given), pointed at `at`, with `json` members replacing the body's.
   */
  const request = (
    route: RouteName,
    at: Partial<RequestTarget> = {},
    json?: Record<string, unknown>,
  ): BenchRequest => {
    const valid = validRequest(route, { ...base, ...at });
    const body = json ? JSON.stringify({ ...valid.json, ...json }) : valid.body;
    return {
      method: valid.method,
      path: valid.url,
      headers: valid.headers,
      ...(body !== undefined && { body }),
    };
  };
  const read =
    (route: RouteName, at: Partial<RequestTarget> = {}) =>
    () =>
      request(route, at);
  const hook = cycle(hooks.webhookIds);
  const ofHooks = () => ({ apiKey: hooks.apiKey, webhookId: hook() });
  const providerConnection = cycle(providers.connectionIds);
  const ofProviders = () => ({ apiKey: providers.apiKey, providerConnectionId: providerConnection() });
  const reply = cycle(demo.replyAssignmentIds);
  const excluded = cycle(Array.from({ length: 20 }, (_, index) => `exclude-${index}.bench.example`));
  let pushed = 0;
  const testDeliveries: { webhookId: number; deliveryId: number }[] = [];
  const created: { apiKey: string; id: number }[] = [];
  let creates = 0;
  const createdConnections: { apiKey: string; id: number }[] = [];
  let connectionCreates = 0;
  const name = (route: RouteName, suffix = '') => {
    const { method, path } = routes.find((candidate) => candidate.name === route)!;
    return `${method === 'ANY' ? 'POST' : method} ${path}${suffix}`;
  };

  const specs: EndpointSpec[] = [
    { name: name('auth'), route: 'auth', next: read('auth') },
    { name: name('list-campaigns'), route: 'list-campaigns', next: read('list-campaigns') },
    { name: name('get-campaign'), route: 'get-campaign', next: read('get-campaign') },
    {
      name: name('list-campaign-accounts'),
      route: 'list-campaign-accounts',
      next: read('list-campaign-accounts'),
      note: 'first page (25)',
    },
    {
      name: name('list-campaign-contacts'),
      route: 'list-campaign-contacts',
      next: read('list-campaign-contacts'),
      note: 'first page (25)',
    },
    {
      name: name('list-campaign-contacts', '?status=replied'),
      route: 'list-campaign-contacts',
      next: () => {
        const contacts = request('list-campaign-contacts');
        return { ...contacts, path: `${contacts.path}?status=replied` };
      },
    },
    {
      name: name('list-campaign-messages'),
      route: 'list-campaign-messages',
      next: read('list-campaign-messages'),
      note: 'first page (25)',
    },
    { name: 'GET /public/v1/accounts?domain=', route: 'lookup-account', next: read('lookup-account') },
    { name: name('search-jobs'), route: 'search-jobs', next: read('search-jobs') },
    {
      name: name('get-analytics-overview'),
      route: 'get-analytics-overview',
      next: read('get-analytics-overview'),
    },
    {
      name: name('check-eligibility'),
      route: 'check-eligibility',
      next: () =>
        request(
          'check-eligibility',
          {},
          { emails: Array.from({ length: 10 }, (_, index) => `check${index}@eligibility.bench.example`) },
        ),
      note: '10 emails',
    },
    {
      name: name('list-webhooks'),
      route: 'list-webhooks',
      next: read('list-webhooks', { apiKey: hooks.apiKey }),
      note: `${HOOKS} subscriptions`,
    },
    { name: name('get-webhook'), route: 'get-webhook', next: () => request('get-webhook', ofHooks()) },
    {
      name: name('list-webhook-deliveries'),
      route: 'list-webhook-deliveries',
      next: () => request('list-webhook-deliveries', ofHooks()),
    },
    {
      name: name('list-provider-connections'),
      route: 'list-provider-connections',
      next: read('list-provider-connections', { apiKey: providers.apiKey }),
      note: `${PROVIDER_CONNECTIONS} connections`,
    },
    {
      name: name('get-provider-connection'),
      route: 'get-provider-connection',
      next: () => request('get-provider-connection', ofProviders()),
    },
    { name: `${name('mcp')} (tools/call get_campaign)`, route: 'mcp', next: read('mcp') },
    ...(
      ['oauth-protected-resource', 'oauth-protected-resource-mcp', 'oauth-authorization-server'] as const
    ).map((route): EndpointSpec => ({ name: name(route), route, next: read(route) })),
    {
      name: name('oauth-authorize'),
      route: 'oauth-authorize',
      next: read('oauth-authorize'),
      note: 'consent page',
    },
    { name: name('openapi'), route: 'openapi', next: read('openapi') },
    { name: name('docs'), route: 'docs', next: read('docs') },
    ...(fixtures.docsAssetPath
      ? [
          {
            name: name('docs-asset'),
            route: 'docs-asset',
            next: read('docs-asset'),
            note: fixtures.docsAssetPath,
          },
        ]
      : []),
    // Writes.
    {
      name: name('push-raw-contacts'),
      route: 'push-raw-contacts',
      next: () =>
        request(
          'push-raw-contacts',
          {},
          {
            contacts: Array.from({ length: 5 }, () => {
              const index = pushed++;
              return {
                email: `push${index}.${runId}@push${index % 50}.bench.example`,
                firstName: `Push${index}`,
                variables: { opener: `Hello ${index}` },
              };
            }),
          },
        ),
      note: '5 new contacts each',
    },
    {
      name: name('reply-to-assignment'),
      route: 'reply-to-assignment',
      next: () => request('reply-to-assignment', { assignmentId: reply() }),
      queuesWork: true,
      // A fixed number: the local mail sender sends one reply at a time, so a longer run only means a longer drain.
      amount: () => REPLIES,
      note: `${REPLIES} replies over ${demo.replyAssignmentIds.length} assignments; each mailed to the SMTP sink`,
    },
    {
      name: name('exclude-account'),
      route: 'exclude-account',
      next: () => request('exclude-account', {}, { company_url: excluded() }),
      note: 'over 20 domains (idempotent)',
    },
    {
      name: name('update-webhook'),
      route: 'update-webhook',
      next: () => {
        const at = ofHooks();
        return request('update-webhook', {
          ...at,
          webhookUrl: `${fixtures.receiverUrl}/bench/hooks/${at.webhookId}`,
        });
      },
    },
    {
      name: name('rotate-webhook-secret'),
      route: 'rotate-webhook-secret',
      next: () => request('rotate-webhook-secret', ofHooks()),
    },
    {
      name: name('test-webhook'),
      route: 'test-webhook',
      next: () => request('test-webhook', ofHooks()),
      onResponse: (status, body) => {
        if (status !== 200) return;
        const { delivery } = JSON.parse(body) as { delivery: { id: number; webhook_id: number } };
        testDeliveries.push({ webhookId: delivery.webhook_id, deliveryId: delivery.id });
      },
      queuesWork: true,
      note: 'each delivered to the local receiver',
    },
    {
      name: name('redeliver-webhook-delivery'),
      route: 'redeliver-webhook-delivery',
      next: (() => {
        // The deliveries the test endpoint made, taken once: the list keeps growing in the sustained run, and a
        // round robin over a growing list would keep landing on the same delivery (a 409 when two overlap).
        let delivery: (() => { webhookId: number; deliveryId: number }) | undefined;
        return () => {
          delivery ??= cycle([...testDeliveries]);
          return request('redeliver-webhook-delivery', { apiKey: hooks.apiKey, ...delivery() });
        };
      })(),
      queuesWork: true,
      note: 'over the test deliveries; each delivered again',
    },
    {
      name: name('receive-provider-webhook'),
      route: 'receive-provider-webhook',
      next: read('receive-provider-webhook'),
      queuesWork: true,
      note: "the catalogue's payload; each kept as unmatched by the queue's consumer",
    },
    {
      // A read, measured here so that the page is a full one: the inbound endpoint just filled it.
      name: name('list-provider-unmatched'),
      route: 'list-provider-unmatched',
      next: read('list-provider-unmatched'),
      note: 'first page (25), after the inbound webhooks above',
    },
    {
      // The provider's page is kept a minute per warm function: after the first, the connection read and the cache.
      name: name('list-provider-campaigns'),
      route: 'list-provider-campaigns',
      next: read('list-provider-campaigns'),
      note: "the demo connection's first page, from the emulator once, then from the warm cache",
    },
    {
      // Over another organization's connections than the one the inbound endpoint is sent to.
      name: name('rotate-provider-webhook-url'),
      route: 'rotate-provider-webhook-url',
      next: () => request('rotate-provider-webhook-url', ofProviders()),
    },
    {
      name: name('create-webhook'),
      route: 'create-webhook',
      next: () => {
        // Fills each organization up to the limit, one after the other.
        const apiKey =
          fixtures.creators[Math.floor(creates / MAX_WEBHOOKS_PER_ORGANIZATION)] ?? fixtures.creators[0]!;
        creates += 1;
        return request('create-webhook', { apiKey });
      },
      // What is left of the organizations' room, less the requests autocannon builds ahead and never sends.
      amount: () => fixtures.creators.length * MAX_WEBHOOKS_PER_ORGANIZATION - creates - CONCURRENCY - 1,
      note: `up to ${MAX_WEBHOOKS_PER_ORGANIZATION} in each of ${fixtures.creators.length} organizations`,
    },
    {
      name: name('delete-webhook'),
      route: 'delete-webhook',
      prepare: async () => {
        for (const apiKey of fixtures.creators) {
          const { webhooks } = await callJson(fixtures.apiUrl, {
            method: 'GET',
            path: '/public/v1/webhooks',
            headers: { 'x-api-key': apiKey },
          });
          for (const { id } of webhooks as { id: number }[]) created.push({ apiKey, id });
        }
      },
      next: () => {
        const target = created.shift();
        return request('delete-webhook', {
          apiKey: target?.apiKey ?? fixtures.creators[0]!,
          webhookId: target?.id ?? 0,
        });
      },
      // Requests autocannon builds ahead and never sends still take a subscription off the list.
      amount: () => created.length - CONCURRENCY - 1,
      note: 'the subscriptions just created',
    },
    {
      name: name('create-provider-connection'),
      route: 'create-provider-connection',
      next: () => {
        // Fills each organization up to the limit, one after the other, as the subscriptions above.
        const apiKey =
          fixtures.creators[Math.floor(connectionCreates / MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION)] ??
          fixtures.creators[0]!;
        connectionCreates += 1;
        return request('create-provider-connection', { apiKey });
      },
      // What is left of the organizations' room, less the requests autocannon builds ahead and never sends.
      amount: () =>
        fixtures.creators.length * MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION -
        connectionCreates -
        CONCURRENCY -
        1,
      note: `up to ${MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION} in each of ${fixtures.creators.length} organizations`,
    },
    {
      name: name('delete-provider-connection'),
      route: 'delete-provider-connection',
      prepare: async () => {
        for (const apiKey of fixtures.creators) {
          const { connections } = await callJson(fixtures.apiUrl, {
            method: 'GET',
            path: '/public/v1/provider-connections',
            headers: { 'x-api-key': apiKey },
          });
          for (const { id } of connections as { id: number }[]) createdConnections.push({ apiKey, id });
        }
      },
      next: () => {
        const target = createdConnections.shift();
        return request('delete-provider-connection', {
          apiKey: target?.apiKey ?? fixtures.creators[0]!,
          providerConnectionId: target?.id ?? 0,
        });
      },
      // Requests autocannon builds ahead and never sends still take a connection off the list.
      amount: () => createdConnections.length - CONCURRENCY - 1,
      note: 'the connections just created',
    },
    {
      name: name('oauth-authorize-submit'),
      route: 'oauth-authorize-submit',
      next: read('oauth-authorize-submit'),
      expectedStatus: validRequest('oauth-authorize-submit', base).status,
      note: 'consent approved: a code and a redirect',
    },
    {
      name: name('oauth-token'),
      route: 'oauth-token',
      next: read('oauth-token'),
      note: 'client credentials',
    },
  ];
  return specs;
}
