import type { routes } from '#definitions/routes.ts';
import type { Provider } from '#schemas/import.ts';

/**
 * The catalogue: one valid request for every route of the manifest, written
 * once, for whatever drives the local stack route by route. The bad-input
 * property test varies each into requests that must be refused, the
 * tenant-isolation test aims each at another organization's resources, and
 * the bench measures each (`bench/endpoints.ts`). A route added to the
 * manifest without an entry here is a type error.
 *
 * JSON bodies name every field the endpoint takes, the optional ones at their
 * defaults, so a consumer can vary any field from a valid value.
 */

export type RouteName = (typeof routes)[number]['name'];

/** What the valid requests point at: resources that exist, and credentials that work. */
export interface RequestTarget {
  /** The stack's root URL, `http://127.0.0.1:PORT` (the MCP resource is `${apiUrl}/mcp`). */
  apiUrl: string;
  apiKey: string;
  campaignId: number;
  /** One of the campaign's sequences. */
  sequenceId: number;
  /** An assignment whose contact has an email address. */
  assignmentId: number;
  /** An account, by its id and its domain. */
  accountId: number;
  accountDomain: string;
  /** A domain with job openings. */
  jobDomain: string;
  webhookId: number;
  /** A delivery of that webhook. */
  deliveryId: number;
  /** Where a created or updated webhook points (an absolute URL the stack accepts). */
  webhookUrl: string;
  oauth: { clientId: string; clientSecret: string; redirectUri: string; accessToken: string };
  /** A file of the reference page, e.g. `swagger-ui.css`. */
  docsAsset: string;
  /** A provider connection, and the parts of its webhook URL (its organization, id and current token). */
  providerConnectionId: number;
  /**
   * A provider workspace that accepts its key (one at the local emulator): connecting and replacing
   * a key ask the provider first, so a valid request names one that answers. Of the connection's provider.
   */
  providerAccount: { provider: Provider; baseUrl: string; apiKey: string };
  providerWebhook: { organization: number; connection: number; token: string };
  /**
   * A campaign of the connection's workspace at its provider, to which `sequenceId` (of the
   * connection's provider) is linked already: reading the link needs one, and linking asks the
   * provider whether the campaign is in its list.
   */
  providerCampaignId: string;
  /** An admin of the organization signed in to the dashboard (infra/local/dashboard-member.ts). */
  member: { cookie: string; csrfToken: string };
}

export interface RouteRequest {
  method: string;
  /** The route's path template with its parameters filled in, unencoded values. */
  pathParameters: Record<string, string>;
  /** The query, in order. */
  query: [string, string][];
  /** Path and query as sent (encoded). */
  url: string;
  headers: Record<string, string>;
  /** The body as sent. */
  body?: string;
  /** A JSON body's members (JSON bodies only). */
  json?: Record<string, unknown>;
  /** A form body's parameters (form bodies only). */
  form?: Record<string, string>;
  /** The status the request is answered with. */
  status: number;
}

/** The emails a valid eligibility check asks about. */
export const EXAMPLE_EMAILS = ['ann@acme.com', 'fresh@fresh-example.com'];

/** A PKCE S256 challenge: 43 base64url characters (the bench and tests never redeem the code). */
const CODE_CHALLENGE = 'c'.repeat(43);

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The MCP tools with the arguments each one requires (and no optional ones), valid for `target`. */
export function validToolArguments(target: RequestTarget): Record<string, Record<string, unknown>> {
  return {
    list_campaigns: {},
    get_analytics_overview: {},
    get_campaign: { campaign_id: target.campaignId },
    list_campaign_accounts: { campaign_id: target.campaignId },
    list_campaign_contacts: { campaign_id: target.campaignId },
    lookup_account: { domain: target.accountDomain },
    search_jobs: { domain: target.jobDomain },
    check_eligibility: { campaign_id: target.campaignId, emails: EXAMPLE_EMAILS },
  };
}

/** A JSON-RPC `tools/call` body. */
export const toolCall = (name: string, args: Record<string, unknown>, id: number | string = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

interface Entry {
  method: string;
  path: string;
  pathParameters?: Record<string, string | number>;
  query?: [string, string][];
  headers?: Record<string, string>;
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  text?: string;
  status?: number;
}

function entries(target: RequestTarget): Record<RouteName, Entry> {
  const api = (
    method: string,
    path: string,
    more: Omit<Entry, 'method' | 'path' | 'headers'> = {},
  ): Entry => ({
    method,
    path: `/public/v1${path}`,
    headers: { 'x-api-key': target.apiKey },
    ...more,
  });
  const campaign = { pathParameters: { id: target.campaignId } };
  const webhook = { pathParameters: { id: target.webhookId } };
  const connection = { pathParameters: { id: target.providerConnectionId } };
  const sequence = { pathParameters: { sequenceId: target.sequenceId } };
  const open = (path: string, more: Omit<Entry, 'method' | 'path'> = {}): Entry => ({
    method: 'GET',
    path,
    ...more,
  });
  const consent = {
    response_type: 'code',
    client_id: target.oauth.clientId,
    redirect_uri: target.oauth.redirectUri,
    code_challenge: CODE_CHALLENGE,
    code_challenge_method: 'S256',
    resource: `${target.apiUrl}/mcp`,
  };
  const signedIn = { cookie: target.member.cookie };
  const noBypass = {
    bypassCooldownOtherSequences: false,
    bypassGlobalExcluded: false,
    takeoverUnapproved: false,
  };
  return {
    auth: api('GET', '/auth'),
    'list-campaigns': api('GET', '/campaigns'),
    'get-campaign': api('GET', '/campaigns/{id}', campaign),
    'list-campaign-accounts': api('GET', '/campaigns/{id}/accounts', campaign),
    'list-campaign-contacts': api('GET', '/campaigns/{id}/contacts', campaign),
    'list-campaign-messages': api('GET', '/campaigns/{id}/messages', campaign),
    'push-raw-contacts': api('POST', '/campaigns/{id}/raw/contacts', {
      ...campaign,
      json: {
        contacts: [{ email: 'new.contact@fresh-example.com', firstName: 'New', variables: { opener: 'Hi' } }],
        triggerIntake: false,
        skipIneligible: true,
        ...noBypass,
        sequenceId: target.sequenceId,
      },
    }),
    'check-eligibility': api('POST', '/campaigns/{id}/raw/contacts/check-eligibility', {
      ...campaign,
      json: { emails: EXAMPLE_EMAILS, ...noBypass, sequenceId: target.sequenceId },
    }),
    'reply-to-assignment': api('POST', '/assignments/{id}/reply', {
      pathParameters: { id: target.assignmentId },
      json: {
        body: 'Thanks, <b>talk soon</b>',
        plain_text: false,
        to: 'ann@acme.com',
        cc: 'bob@globex.io',
        bcc: 'cy@initech.com',
      },
    }),
    'lookup-account': api('GET', '/accounts', { query: [['domain', target.accountDomain]] }),
    'exclude-account': api('POST', '/accounts/exclude', {
      json: {
        company_url: 'https://www.example.org/about',
        company_name: 'Example',
        company_linkedin_url: 'https://linkedin.com/company/example',
      },
    }),
    'search-jobs': api('GET', '/jobs/{domain}', { pathParameters: { domain: target.jobDomain } }),
    'get-analytics-overview': api('GET', '/analytics/overview'),
    'list-webhooks': api('GET', '/webhooks'),
    'create-webhook': api('POST', '/webhooks', { json: { url: target.webhookUrl, events: ['first_touch'] } }),
    'get-webhook': api('GET', '/webhooks/{id}', webhook),
    'update-webhook': api('PATCH', '/webhooks/{id}', {
      ...webhook,
      json: { url: target.webhookUrl, events: ['first_touch'], enabled: true },
    }),
    'delete-webhook': api('DELETE', '/webhooks/{id}', webhook),
    'test-webhook': api('POST', '/webhooks/{id}/test', webhook),
    'rotate-webhook-secret': api('POST', '/webhooks/{id}/rotate-secret', webhook),
    'list-webhook-deliveries': api('GET', '/webhooks/{id}/deliveries', webhook),
    'redeliver-webhook-delivery': api('POST', '/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
      pathParameters: { id: target.webhookId, deliveryId: target.deliveryId },
    }),
    'list-provider-connections': api('GET', '/provider-connections'),
    'create-provider-connection': api('POST', '/provider-connections', {
      json: {
        provider: target.providerAccount.provider,
        api_key: target.providerAccount.apiKey,
        base_url: target.providerAccount.baseUrl,
      },
    }),
    'update-provider-connection': api('PATCH', '/provider-connections/{id}', {
      ...connection,
      json: { api_key: target.providerAccount.apiKey },
    }),
    'get-provider-connection': api('GET', '/provider-connections/{id}', connection),
    'delete-provider-connection': api('DELETE', '/provider-connections/{id}', connection),
    'rotate-provider-webhook-url': api('POST', '/provider-connections/{id}/rotate-webhook-url', connection),
    'check-provider-connection': api('POST', '/provider-connections/{id}/check', connection),
    'list-provider-unmatched': api('GET', '/provider-connections/{id}/unmatched', connection),
    'list-provider-campaigns': api('GET', '/provider-connections/{id}/campaigns', connection),
    'get-sequence-provider-link': api('GET', '/sequences/{sequenceId}/provider-link', sequence),
    'put-sequence-provider-link': api('PUT', '/sequences/{sequenceId}/provider-link', {
      ...sequence,
      json: { connection_id: target.providerConnectionId, provider_campaign_id: target.providerCampaignId },
    }),
    'delete-sequence-provider-link': api('DELETE', '/sequences/{sequenceId}/provider-link', sequence),
    'receive-provider-webhook': {
      method: 'POST',
      path: '/provider-webhooks/{organization}/{connection}/{token}',
      pathParameters: target.providerWebhook,
      headers: { 'content-type': 'application/json' },
      // A payload of an event type the service does not record: accepted, kept as unmatched.
      json: { event_type: 'EXAMPLE_EVENT', campaign_id: 1 },
    },
    mcp: {
      method: 'POST',
      path: '/mcp',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${target.oauth.accessToken}` },
      text: toolCall('get_campaign', validToolArguments(target).get_campaign!),
    },
    'oauth-protected-resource': open('/.well-known/oauth-protected-resource'),
    'oauth-protected-resource-mcp': open('/.well-known/oauth-protected-resource/mcp'),
    'oauth-authorization-server': open('/.well-known/oauth-authorization-server'),
    'oauth-authorize': open('/oauth/authorize', { query: Object.entries(consent), headers: signedIn }),
    'oauth-authorize-submit': {
      method: 'POST',
      path: '/oauth/authorize',
      headers: signedIn,
      form: {
        ...consent,
        csrf: target.member.csrfToken,
        orgId: String(target.providerWebhook.organization),
        decision: 'approve',
      },
      status: 302,
    },
    'oauth-register': {
      method: 'POST',
      path: '/oauth/register',
      // A public client of the code flow with refresh tokens, as an MCP client registers itself.
      json: {
        redirect_uris: [target.oauth.redirectUri],
        client_name: 'Example Assistant',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'mcp:read',
      },
      status: 201,
    },
    'oauth-token': {
      method: 'POST',
      path: '/oauth/token',
      form: {
        grant_type: 'client_credentials',
        client_id: target.oauth.clientId,
        client_secret: target.oauth.clientSecret,
      },
    },
    dashboard: open('/dashboard', { headers: signedIn }),
    'dashboard-page': open('/dashboard/{page}', { pathParameters: { page: 'webhooks' }, headers: signedIn }),
    'dashboard-item': open('/dashboard/{page}/{item}', {
      pathParameters: { page: 'webhooks', item: target.webhookId },
      headers: signedIn,
    }),
    openapi: open('/openapi.json'),
    docs: open('/docs'),
    'docs-asset': open('/docs/{asset}', { pathParameters: { asset: target.docsAsset } }),
  };
}

/** Fills a route's path template with encoded values. */
export const fillPath = (path: string, parameters: Record<string, string>): string =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? ''));

/** The valid request of `route` for `target`. */
export function validRequest(route: RouteName, target: RequestTarget): RouteRequest {
  const entry = entries(target)[route];
  const pathParameters = Object.fromEntries(
    Object.entries(entry.pathParameters ?? {}).map(([name, value]) => [name, String(value)]),
  );
  const query = entry.query ?? [];
  const search = query.length === 0 ? '' : `?${new URLSearchParams(query).toString()}`;
  const headers = {
    ...entry.headers,
    ...(entry.json && { 'content-type': 'application/json' }),
    ...(entry.form && { 'content-type': 'application/x-www-form-urlencoded' }),
  };
  const body = entry.json
    ? JSON.stringify(entry.json)
    : entry.form
      ? new URLSearchParams(entry.form).toString()
      : entry.text;
  return {
    method: entry.method,
    pathParameters,
    query,
    url: `${fillPath(entry.path, pathParameters)}${search}`,
    headers,
    ...(body !== undefined && { body }),
    ...(entry.json && { json: entry.json }),
    ...(entry.form && { form: entry.form }),
    status: entry.status ?? 200,
  };
}

/** An MCP access token by the client-credentials grant, from the stack at `apiUrl`; throws unless it is issued. */
export async function clientCredentialsToken(
  apiUrl: string,
  client: { clientId: string; clientSecret: string },
): Promise<string> {
  const response = await fetch(`${apiUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  if (response.status !== 200) throw new Error(`POST /oauth/token answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The parts of a provider connection's webhook URL, as the catalogue's target holds them. */
export function providerWebhookOf(webhookUrl: string): RequestTarget['providerWebhook'] {
  const match = /\/provider-webhooks\/(\d+)\/(\d+)\/([^/?#]+)$/.exec(webhookUrl);
  if (!match) throw new Error(`Not a provider webhook URL: ${webhookUrl}`);
  return { organization: Number(match[1]), connection: Number(match[2]), token: match[3]! };
}
