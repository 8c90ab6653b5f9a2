import { applyImport, validateImport } from '#admin/import.ts';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { MAX_REGISTRATIONS_PER_HOUR } from '#definitions/oauth-limits.ts';
import { routes } from '#definitions/routes.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { getCampaign } from '#domain/campaigns.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION } from '#domain/provider-connections.ts';
import { MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import type { Provider } from '#schemas/import.ts';
import { allocateId } from '#store/ids.ts';
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
 * per request in organizations with room for them, sequences linked and
 * unlinked each in a campaign of its own). Calls to the provider's emulator
 * (key checks, campaign lists) are spread over workspaces of their own, so
 * that no key meets the emulator's rate limit.
 */

/**
 * What makes an endpoint's requests; `fixed` where they are a fixed set (a read's), which the load
 * generator then builds once and sends in turn rather than making each request as it sends it.
 */
export type NextRequest = (() => BenchRequest) & { readonly fixed?: readonly BenchRequest[] };

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
  next: NextRequest;
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
  /** False: left out of the sustained run's mix (a limit allows only the endpoint's own run). */
  sustained?: false;
}

/** A sequence of the links organization, its connection and the emulator campaign it is linked to. */
export interface SequenceLinkTarget {
  sequenceId: number;
  connectionId: number;
  campaignId: string;
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
  /** The organization whose subscriptions are read and written, and a viewer of it signed in to the dashboard. */
  hooks: { apiKey: string; webhookIds: number[]; member: RequestTarget['member'] };
  /**
   * Provider connections: the demo organization's one, whose webhook URL the inbound endpoint is sent
   * to (never rotated), and an organization's many, read and rotated.
   */
  providers: {
    /** The emulator workspace every bench connection is made with. */
    account: RequestTarget['providerAccount'];
    demoConnectionId: number;
    demoWebhook: RequestTarget['providerWebhook'];
    /** A campaign of that workspace (the demo's sequences are not Instantly's: `links` has the linked ones). */
    campaignId: string;
    apiKey: string;
    /** Each with a workspace (an API key) of its own: the key checks and replacements ask the emulator. */
    connections: { id: number; apiKey: string }[];
  };
  /**
   * An organization of Instantly sequences, each in a campaign of its own (a link writes its campaign's
   * item) and linked to an emulator campaign of its own: `read` stay linked (read and linked again),
   * `unlinked` are the delete endpoint's, `sustained` the sustained run's (linked and unlinked in turn).
   */
  links: {
    apiKey: string;
    read: SequenceLinkTarget[];
    unlinked: SequenceLinkTarget[];
    sustained: SequenceLinkTarget[];
  };
  /**
   * Organizations with room for subscriptions and provider connections, for the create endpoints: each
   * one's API key and its own emulator workspace (`providerKey`), which its connections are made with, as
   * each organization connects its own provider account. One workspace for all of them held every create
   * to one workspace's documented rate (Instantly's 100 a second), which a fast machine's load passed,
   * and the emulator's 429s came back as 502s.
   */
  creators: { apiKey: string; providerKey: string }[];
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
/** Linked sequences read and linked again, and those the delete endpoint unlinks, one request each. */
const LINKS_READ = 16;
const LINKS_UNLINKED = 64;
/** Connections (workspaces) of the links organization, over which its sequences are spread. */
const LINK_CONNECTIONS = 8;

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
  // the creates, Instantly's, whose emulated limit (100 requests a second a key) they stay under.
  const account = {
    provider: 'instantly' as const,
    baseUrl: providerApiUrls.instantly,
    apiKey: 'bench-provider-key',
  };
  const emulator = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(new URL(`/_emulator${path}`, account.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`The emulator's ${path}: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const workspace = async (apiKey: string) => {
    await emulator('/workspaces', { apiKey });
    return apiKey;
  };
  const emulatorCampaign = async (apiKey: string, name: string) =>
    String((await emulator('/campaigns', { apiKey, name })).id);
  const connect = (apiKey: string, providerKey = account.apiKey) =>
    callJson(apiUrl, {
      method: 'POST',
      path: '/public/v1/provider-connections',
      headers: json(apiKey),
      body: JSON.stringify({ provider: account.provider, api_key: providerKey, base_url: account.baseUrl }),
    });
  await workspace(account.apiKey);
  const demoConnection = await connect(demo.apiKey);
  const providerCampaignId = await emulatorCampaign(account.apiKey, 'Bench campaign');
  const { orgId: providersOrg } = await createOrganization('Bench Providers');
  const { apiKey: providersKey } = await createApiKey(providersOrg);
  const connections: { id: number; apiKey: string }[] = [];
  for (let index = 0; index < PROVIDER_CONNECTIONS; index++) {
    const providerKey = await workspace(`bench-provider-key-${index}`);
    connections.push({ id: (await connect(providersKey, providerKey)).id as number, apiKey: providerKey });
  }
  const links = await linkedSequences(apiUrl, { connect, workspace, emulatorCampaign });
  const creators: BenchFixtures['creators'] = [];
  for (let index = 0; index < CREATOR_ORGANIZATIONS; index++) {
    const { orgId } = await createOrganization(`Bench Creator ${index}`);
    creators.push({
      apiKey: (await createApiKey(orgId)).apiKey,
      providerKey: await workspace(`bench-creator-key-${index}`),
    });
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
    hooks: { apiKey: hooksKey, webhookIds, member: await signedInMember(hooksOrg, 'viewer') },
    providers: {
      account,
      demoConnectionId: demoConnection.id as number,
      demoWebhook: providerWebhookOf(demoConnection.webhook_url as string),
      campaignId: providerCampaignId,
      apiKey: providersKey,
      connections,
    },
    links,
    creators,
    oauth: { ...client, redirectUri: REDIRECT_URI, mcpToken: accessToken },
    docsAssetPath: await docsAsset(apiUrl),
    member: await signedInMember(demo.orgId, 'admin'),
  };
}

/**
 * The links organization (`BenchFixtures.links`): its Instantly sequences, each in a campaign of its
 * own and spread over connections of their own workspaces, each linked through the API to an emulator
 * campaign of its own.
 */
async function linkedSequences(
  apiUrl: string,
  emulator: {
    connect: (apiKey: string, providerKey: string) => Promise<Record<string, unknown>>;
    workspace: (apiKey: string) => Promise<string>;
    emulatorCampaign: (apiKey: string, name: string) => Promise<string>;
  },
): Promise<BenchFixtures['links']> {
  const { orgId } = await createOrganization('Bench Links');
  const { apiKey } = await createApiKey(orgId);
  const count = LINKS_READ + LINKS_UNLINKED + CONCURRENCY;
  const sequenceIds: number[] = [];
  const campaigns = [];
  for (let index = 0; index < count; index++) {
    const sequenceId = await allocateId('sequence');
    sequenceIds.push(sequenceId);
    campaigns.push({
      id: await allocateId('campaign'),
      name: `Bench linked ${index}`,
      sequences: [
        {
          id: sequenceId,
          provider: 'instantly',
          channel: 'email',
          steps: [{ type: 'email', variants: [{ subject: 'Hi {{opener}}', body: 'Hello' }] }],
        },
      ],
    });
  }
  const document = validateImport({ campaigns });
  if (!document.ok) throw new Error(`The links organization: ${JSON.stringify(document.errors.slice(0, 3))}`);
  await applyImport(orgId, document.document);
  const connections: { id: number; providerKey: string }[] = [];
  for (let index = 0; index < LINK_CONNECTIONS; index++) {
    const providerKey = await emulator.workspace(`bench-links-key-${index}`);
    connections.push({ id: (await emulator.connect(apiKey, providerKey)).id as number, providerKey });
  }
  // One connection's sequences after another's, the connections side by side.
  const targets: SequenceLinkTarget[] = new Array(count);
  await Promise.all(
    connections.map(async (connection, offset) => {
      for (let index = offset; index < count; index += LINK_CONNECTIONS) {
        const target = {
          sequenceId: sequenceIds[index]!,
          connectionId: connection.id,
          campaignId: await emulator.emulatorCampaign(connection.providerKey, `Bench linked ${index}`),
        };
        await callJson(apiUrl, {
          method: 'PUT',
          path: `/public/v1/sequences/${target.sequenceId}/provider-link`,
          headers: json(apiKey),
          body: JSON.stringify({
            connection_id: target.connectionId,
            provider_campaign_id: target.campaignId,
          }),
        });
        targets[index] = target;
      }
    }),
  );
  return {
    apiKey,
    read: targets.slice(0, LINKS_READ),
    unlinked: targets.slice(LINKS_READ, LINKS_READ + LINKS_UNLINKED),
    sustained: targets.slice(LINKS_READ + LINKS_UNLINKED),
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
  const { demo, hooks, links, oauth, providers } = fixtures;
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
  /** Requests already built, by route and target: the catalogue builds every route's request to give one. */
  const built = new Map<string, BenchRequest>();
  /**
   * The route's valid request (a fresh object each time: autocannon writes the content length into the
   * headers it is given), pointed at `at`, with `json` members replacing the body's.
   */
  const request = (
    route: RouteName,
    at: Partial<RequestTarget> = {},
    json?: Record<string, unknown>,
  ): BenchRequest => {
    const key = json ? undefined : `${route} ${JSON.stringify(at)}`;
    let made = key === undefined ? undefined : built.get(key);
    if (!made) {
      const valid = validRequest(route, { ...base, ...at });
      const body = json ? JSON.stringify({ ...valid.json, ...json }) : valid.body;
      made = {
        method: valid.method,
        path: valid.url,
        headers: valid.headers,
        ...(body !== undefined && { body }),
      };
      if (key !== undefined) built.set(key, made);
    }
    return { ...made, headers: { ...made.headers } };
  };
  /**
   * A read's requests, one per target (the same one by default), built once and sent in turn: building
   * requests as they are sent takes the load generator's time, which shares the cores with the stack.
   */
  const read = (route: RouteName, ...targets: Partial<RequestTarget>[]): NextRequest => {
    const fixed = (targets.length > 0 ? targets : [{}]).map((at) => request(route, at));
    const next = cycle(fixed);
    return Object.assign(
      () => {
        const made = next();
        return { ...made, headers: { ...made.headers } };
      },
      { fixed },
    );
  };
  const hook = cycle(hooks.webhookIds);
  const ofHooks = () => ({ apiKey: hooks.apiKey, webhookId: hook() });
  /** Each of the hooks organization's subscriptions, for the reads that go round them. */
  const eachHook = hooks.webhookIds.map((webhookId) => ({ apiKey: hooks.apiKey, webhookId }));
  /** One of the providers organization's connections, with its own workspace's key (a check and a replacement ask it). */
  const ofConnection = (connection: (typeof providers.connections)[number]) => ({
    apiKey: providers.apiKey,
    providerConnectionId: connection.id,
    providerAccount: { ...providers.account, apiKey: connection.apiKey },
  });
  const providerConnection = cycle(providers.connections);
  const ofProviders = () => ofConnection(providerConnection());
  const ofLink = (target: SequenceLinkTarget) => ({
    apiKey: links.apiKey,
    sequenceId: target.sequenceId,
    providerConnectionId: target.connectionId,
    providerCampaignId: target.campaignId,
  });
  const readLink = cycle(links.read);
  const unlinked = [...links.unlinked];
  let registrations = 0;
  const reply = cycle(demo.replyAssignmentIds);
  const excluded = cycle(Array.from({ length: 20 }, (_, index) => `exclude-${index}.bench.example`));
  let pushed = 0;
  const testDeliveries: { webhookId: number; deliveryId: number }[] = [];
  const created: { apiKey: string; id: number }[] = [];
  let creates = 0;
  const createdConnections: { apiKey: string; id: number }[] = [];
  let connectionCreates = 0;
  // The catalogue's method: a route of `ANY` (the MCP endpoint, the dashboard) is shown as it is called.
  const name = (route: RouteName, suffix = '') => {
    const { path } = routes.find((candidate) => candidate.name === route)!;
    return `${validRequest(route, base).method} ${path}${suffix}`;
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
    { name: name('get-webhook'), route: 'get-webhook', next: read('get-webhook', ...eachHook) },
    {
      name: name('list-webhook-deliveries'),
      route: 'list-webhook-deliveries',
      next: read('list-webhook-deliveries', ...eachHook),
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
      next: read('get-provider-connection', ...providers.connections.map(ofConnection)),
    },
    {
      name: name('get-sequence-provider-link'),
      route: 'get-sequence-provider-link',
      next: read('get-sequence-provider-link', ...links.read.map(ofLink)),
      note: `over ${links.read.length} linked sequences`,
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
    { name: name('dashboard'), route: 'dashboard', next: read('dashboard'), note: 'the overview, an admin' },
    {
      name: name('dashboard-page', ' (webhooks)'),
      route: 'dashboard-page',
      next: read('dashboard-page', { member: hooks.member }),
      note: `a viewer; ${HOOKS} subscriptions`,
    },
    {
      name: name('dashboard-item', ' (webhooks/{id})'),
      route: 'dashboard-item',
      next: read('dashboard-item', ...eachHook.map((at) => ({ ...at, member: hooks.member }))),
      note: 'a viewer; a subscription and its deliveries',
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
      // The connection's own key again: the provider is asked, and the key sealed in place of the old.
      name: name('update-provider-connection'),
      route: 'update-provider-connection',
      next: () => request('update-provider-connection', ofProviders()),
      note: `over ${PROVIDER_CONNECTIONS} connections, each key checked at the emulator`,
    },
    {
      name: name('check-provider-connection'),
      route: 'check-provider-connection',
      next: () => request('check-provider-connection', ofProviders()),
      note: `over ${PROVIDER_CONNECTIONS} connections, each asking the emulator`,
    },
    {
      // Linked already: the provider's list is read and the link written again.
      name: name('put-sequence-provider-link'),
      route: 'put-sequence-provider-link',
      next: () => request('put-sequence-provider-link', ofLink(readLink())),
      note: `over ${links.read.length} sequences, each asking the emulator for its campaigns`,
    },
    {
      name: name('delete-sequence-provider-link'),
      route: 'delete-sequence-provider-link',
      next: () => {
        const target = unlinked.shift() ?? links.unlinked[0]!;
        return request('delete-sequence-provider-link', ofLink(target));
      },
      // Requests autocannon builds ahead and never sends still take a sequence off the list.
      amount: () => unlinked.length - CONCURRENCY - 1,
      note: `${links.unlinked.length} linked sequences, each unlinked once`,
    },
    {
      name: name('create-webhook'),
      route: 'create-webhook',
      next: () => {
        // Fills each organization up to the limit, one after the other.
        const apiKey = (
          fixtures.creators[Math.floor(creates / MAX_WEBHOOKS_PER_ORGANIZATION)] ?? fixtures.creators[0]!
        ).apiKey;
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
        for (const { apiKey } of fixtures.creators) {
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
          apiKey: target?.apiKey ?? fixtures.creators[0]!.apiKey,
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
        // Fills each organization up to the limit, one after the other, as the subscriptions above, each
        // with its own provider workspace.
        const { apiKey, providerKey } =
          fixtures.creators[Math.floor(connectionCreates / MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION)] ??
          fixtures.creators[0]!;
        connectionCreates += 1;
        return request('create-provider-connection', {
          apiKey,
          providerAccount: { ...providers.account, apiKey: providerKey },
        });
      },
      // What is left of the organizations' room, less the requests autocannon builds ahead and never sends.
      amount: () =>
        fixtures.creators.length * MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION -
        connectionCreates -
        CONCURRENCY -
        1,
      note: `up to ${MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION} in each of ${fixtures.creators.length} organizations, each with its own provider workspace`,
    },
    {
      name: name('delete-provider-connection'),
      route: 'delete-provider-connection',
      prepare: async () => {
        for (const { apiKey } of fixtures.creators) {
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
          apiKey: target?.apiKey ?? fixtures.creators[0]!.apiKey,
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
    {
      name: name('oauth-register'),
      route: 'oauth-register',
      next: read('oauth-register'),
      expectedStatus: validRequest('oauth-register', base).status,
      onResponse: (status) => {
        if (status === 201) registrations += 1;
      },
      // Every request comes from 127.0.0.1, and an address registers at most this many clients an hour of the
      // clock (#definitions/oauth-limits.ts): what the warm-up and the recordings left of it.
      amount: () => MAX_REGISTRATIONS_PER_HOUR - registrations,
      sustained: false,
      note: `${MAX_REGISTRATIONS_PER_HOUR} in all: one source address's registrations an hour`,
    },
  ];
  return specs;
}
