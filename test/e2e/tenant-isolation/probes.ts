import { expect } from 'vitest';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import {
  providerWebhookOf,
  type RequestTarget,
  type RouteName,
  type RouteRequest,
  toolCall,
  validRequest,
  validToolArguments,
} from '../../../infra/local/route-requests.ts';
import { apiClient } from '../../support/api-client.ts';
import { expectedOverview, modelOf } from '../../support/expected.ts';
import { smallDocument } from '../../support/fixtures.ts';
import { waitFor } from '../../support/wait.ts';
import { A_DOMAINS, A_EMAILS, A_IDS, A_REDIRECT, B_DOMAIN, B_REDIRECT, type Tenants } from './tenants.ts';

/**
 * B's probes of A, route by route: each route's valid request from the
 * catalogue (infra/local/route-requests.ts) with B's credentials, aimed at A's
 * resources one field at a time, and what B must get back.
 */

type Json = Record<string, unknown>;

/** What the probes need: the tenants, B's catalogue target, and the receiver's URL. */
export interface ProbeContext extends Tenants {
  /** B's credentials on B's resources. */
  target: RequestTarget;
  receiverUrl: string;
}

export interface ProbeRequest {
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
 * - `oauth`: an RFC 6749 error; `page`: the consent form again or an error page, never a redirect with a code;
 * - `created`: 201, a client registered (of no organization, so neither A's nor B's);
 * - `readOnly`: 403 `{message}` for B's read key on a route that writes, whatever the request names.
 */
export type Expectation =
  | { kind: 'hidden' }
  | { kind: 'denied' }
  | { kind: 'refused' }
  | { kind: 'own'; check?: (body: Json) => void | Promise<void> }
  | { kind: 'toolHidden' }
  | { kind: 'toolOwn'; check?: (content: Json) => void }
  | { kind: 'oauth'; status: number; error: string }
  | { kind: 'page'; status: number }
  | { kind: 'created' }
  | { kind: 'readOnly' };

export interface Probe {
  what: string;
  request: ProbeRequest;
  expect: Expectation;
}

const json = (value: unknown) => JSON.stringify(value);

const asSent = ({ method, url, headers, body }: RouteRequest): ProbeRequest => ({
  method,
  url,
  headers,
  body,
});

/** A catalogue request with its query replaced. */
const withQuery = (request: RouteRequest, query: [string, string][]): ProbeRequest => ({
  ...asSent(request),
  url: `${request.url.split('?')[0]}?${new URLSearchParams(query)}`,
});

/** A catalogue request with some members of its JSON body replaced (or the whole body, with `replace`). */
const withJson = (request: RouteRequest, members: Json, replace = false): ProbeRequest => ({
  ...asSent(request),
  body: json(replace ? members : { ...request.json, ...members }),
});

/** A catalogue request with some parameters of its form body replaced. */
const withForm = (request: RouteRequest, parameters: Record<string, string>): ProbeRequest => ({
  ...asSent(request),
  body: new URLSearchParams({ ...request.form, ...parameters }).toString(),
});

const hidden = (what: string, request: ProbeRequest): Probe => ({
  what,
  request,
  expect: { kind: 'hidden' },
});
const refused = (what: string, request: ProbeRequest): Probe => ({
  what,
  request,
  expect: { kind: 'refused' },
});
const own = (what: string, request: ProbeRequest, check?: (body: Json) => void | Promise<void>): Probe => ({
  what,
  request,
  expect: { kind: 'own', check },
});

/** A tools/call of B's token (the catalogue's /mcp request with another call). */
export function tool(ctx: ProbeContext, name: string, args: Json): ProbeRequest {
  return { ...asSent(validRequest('mcp', ctx.target)), body: toolCall(name, args) };
}

/** What B may look up with A's identifiers through each MCP tool. */
export function mcpProbes(ctx: ProbeContext): Record<string, Probe[]> {
  const { a, target } = ctx;
  const toolHidden = (what: string, name: string, args: Json): Probe => ({
    what,
    request: tool(ctx, name, args),
    expect: { kind: 'toolHidden' },
  });
  const toolOwn = (what: string, name: string, args: Json, check?: (content: Json) => void): Probe => ({
    what,
    request: tool(ctx, name, args),
    expect: { kind: 'toolOwn', check },
  });
  /** A tool's valid arguments, aimed at A's resources. */
  const aimed = (name: string, at: Partial<RequestTarget>) => validToolArguments({ ...target, ...at })[name]!;
  const [firstCampaign] = A_IDS.campaigns;
  const ofCampaigns = (name: string, extra: Json = {}) =>
    A_IDS.campaigns.map((id) =>
      toolHidden(`A's campaign ${id}`, name, { ...aimed(name, { campaignId: id }), ...extra }),
    );
  return {
    list_campaigns: [
      toolOwn('its campaigns', 'list_campaigns', aimed('list_campaigns', {}), (content) =>
        expect((content.campaigns as { id: number }[]).map((campaign) => campaign.id)).toEqual([101, 102]),
      ),
    ],
    get_analytics_overview: [
      toolOwn('its overview', 'get_analytics_overview', aimed('get_analytics_overview', {}), (content) =>
        expect(content).toEqual(expectedOverview(modelOf(smallDocument()))),
      ),
    ],
    get_campaign: ofCampaigns('get_campaign'),
    list_campaign_accounts: ofCampaigns('list_campaign_accounts'),
    list_campaign_contacts: ofCampaigns('list_campaign_contacts', { status: 'scheduled' }),
    lookup_account: [
      ...A_IDS.accounts.map((id) => toolHidden(`A's account ${id}`, 'lookup_account', { id })),
      ...A_DOMAINS.map((domain) =>
        toolHidden(
          `A's domain ${domain}`,
          'lookup_account',
          aimed('lookup_account', { accountDomain: domain }),
        ),
      ),
      toolHidden(`its account with A's campaign`, 'lookup_account', {
        ...aimed('lookup_account', {}),
        campaign_id: firstCampaign,
      }),
    ],
    search_jobs: [
      toolOwn(
        `A's domain in its own jobs`,
        'search_jobs',
        aimed('search_jobs', { jobDomain: 'zorblax.com' }),
        (content) => expect(content).toEqual({ domain: 'zorblax.com', next: 0, jobs: [] }),
      ),
      toolHidden(`A's cursor`, 'search_jobs', {
        ...aimed('search_jobs', { jobDomain: 'zorblax.com' }),
        cursor: a.jobCursor,
      }),
    ],
    check_eligibility: [
      toolHidden(`A's campaign`, 'check_eligibility', {
        ...aimed('check_eligibility', { campaignId: firstCampaign }),
        emails: A_EMAILS,
      }),
      toolHidden(`A's sequence in its campaign`, 'check_eligibility', {
        ...aimed('check_eligibility', {}),
        emails: ['cyprian@vandelay.com'],
        sequenceId: A_IDS.sequences[0],
      }),
      toolOwn(
        `A's contact in its own campaign`,
        'check_eligibility',
        { ...aimed('check_eligibility', {}), emails: ['cyprian@vandelay.com'] },
        (content) =>
          expect((content as { results: unknown }).results).toEqual([
            { email: 'cyprian@vandelay.com', eligible: true, reasons: [] },
          ]),
      ),
    ],
  };
}

/** B's attempts on A, route by route; a route missing here is a type error and fails its test. */
export function matrix(ctx: ProbeContext): Record<RouteName, () => Probe[]> {
  const { a, b, target } = ctx;
  /** The route's valid request, with B's credentials, aimed at what `at` names. */
  const valid = (route: RouteName, at: Partial<RequestTarget> = {}) =>
    validRequest(route, { ...target, ...at });
  const [firstCampaign] = A_IDS.campaigns;
  /** Each of A's campaigns (with its own first email sequence, where the request names one). */
  const sequenceOfA = new Map([
    [A_IDS.campaigns[0]!, A_IDS.sequences[0]!],
    [A_IDS.campaigns[1]!, A_IDS.sequences[2]!],
  ]);
  const eachCampaignOfA = (route: RouteName, change: (request: RouteRequest) => ProbeRequest = asSent) =>
    A_IDS.campaigns.map((id) =>
      hidden(
        `A's campaign ${id}`,
        change(valid(route, { campaignId: id, sequenceId: sequenceOfA.get(id)! })),
      ),
    );
  const ofA = { webhookId: a.webhookId };
  const stolenKeys = [`${b.orgId}.${a.apiKey.split('.')[1]}`, `${a.orgId}.${b.apiKey.split('.')[1]}`];
  const mcpError = (what: string, headers: Record<string, string>): Probe => {
    const { authorization: _token, ...others } = valid('mcp').headers;
    return {
      what,
      request: {
        ...asSent(valid('mcp')),
        headers: { ...others, ...headers },
        body: json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      },
      expect: { kind: 'denied' },
    };
  };
  const oauthOfA = { ...target.oauth, clientId: a.client.clientId, clientSecret: a.client.clientSecret };
  const connectionOfA = { providerConnectionId: a.providerConnectionId };
  /** A's linked Smartlead sequence, an id B's organization does not have. */
  const sequenceOfAOnly = { sequenceId: A_IDS.sequences[0]! };
  const webhookOfA = providerWebhookOf(a.providerWebhookUrl);
  const webhookOfB = target.providerWebhook;
  /**
   * A Smartlead reply about A's first contact in A's first campaign, signed with B's token: whatever B
   * posts it to, it must never become A's.
   */
  const replyAboutA = (providerWebhook: RequestTarget['providerWebhook']) =>
    withJson(
      valid('receive-provider-webhook', { providerWebhook }),
      {
        event_type: 'EMAIL_REPLY',
        campaign_id: firstCampaign,
        to_email: A_EMAILS[0],
        secret_key: webhookOfB.token,
        reply_message: { text: 'Stolen reply' },
      },
      true,
    );
  const deniedWebhook = (what: string, providerWebhook: RequestTarget['providerWebhook']): Probe => ({
    what,
    request: replyAboutA(providerWebhook),
    expect: { kind: 'denied' },
  });
  const documentProbe = (route: RouteName) => (): Probe[] => [own('the document', asSent(valid(route)))];
  return {
    auth: () => [
      own('its own key', asSent(valid('auth')), (body) => expect(body).toEqual({ signed_in: true })),
      ...stolenKeys.map(
        (key): Probe => ({
          what: `a key mixing the organizations: ${key.slice(0, 8)}…`,
          request: asSent(valid('auth', { apiKey: key })),
          expect: { kind: 'denied' },
        }),
      ),
    ],
    'list-campaigns': () => [
      own('its campaigns', asSent(valid('list-campaigns')), (body) =>
        expect((body.campaigns as { id: number }[]).map((campaign) => campaign.id)).toEqual([101, 102]),
      ),
    ],
    'get-campaign': () => eachCampaignOfA('get-campaign'),
    'list-campaign-accounts': () =>
      eachCampaignOfA('list-campaign-accounts', (r) => withQuery(r, [['take', '100']])),
    'list-campaign-contacts': () => [
      ...eachCampaignOfA('list-campaign-contacts'),
      ...eachCampaignOfA('list-campaign-contacts', (r) => withQuery(r, [['status', 'replied']])),
    ],
    'list-campaign-messages': () => eachCampaignOfA('list-campaign-messages'),
    'push-raw-contacts': () => [
      ...eachCampaignOfA('push-raw-contacts', (r) =>
        withJson(r, {
          contacts: A_EMAILS.map((email) => ({ email, variables: { stolen: 'yes' } })),
          skipIneligible: false,
          triggerIntake: true,
        }),
      ),
      refused(
        `A's sequence in its campaign`,
        withJson(valid('push-raw-contacts'), {
          contacts: [{ email: 'bartholomew@quuxco.io' }],
          sequenceId: A_IDS.sequences[0],
        }),
      ),
      own(
        `A's contact into its own campaign`,
        withJson(valid('push-raw-contacts'), { contacts: [{ email: 'bartholomew@quuxco.io' }] }),
        (body) => expect(body).toMatchObject({ created: 1, updated: 0, skipped: 0, errors: [] }),
      ),
    ],
    'check-eligibility': () => [
      ...eachCampaignOfA('check-eligibility', (r) => withJson(r, { emails: A_EMAILS })),
      refused(
        `A's sequence in its campaign`,
        withJson(valid('check-eligibility'), {
          emails: ['cyprian@vandelay.com'],
          sequenceId: A_IDS.sequences[1],
        }),
      ),
      // In A, cyprian@vandelay.com bounced and vandelay.com is excluded; in B the address is unknown.
      own(
        `A's contact against its own campaign`,
        withJson(valid('check-eligibility'), { emails: ['cyprian@vandelay.com'] }),
        (body) =>
          expect(body.results).toEqual([{ email: 'cyprian@vandelay.com', eligible: true, reasons: [] }]),
      ),
    ],
    'reply-to-assignment': () =>
      A_IDS.assignments.map((id) =>
        hidden(
          `A's assignment ${id}`,
          withJson(valid('reply-to-assignment', { assignmentId: id }), {
            body: 'Stolen thread',
            to: 'attacker@beta.example',
          }),
        ),
      ),
    'lookup-account': () => [
      ...A_IDS.accounts.map((id) =>
        hidden(`A's account ${id}`, withQuery(valid('lookup-account'), [['id', `${id}`]])),
      ),
      ...A_DOMAINS.map((domain) =>
        hidden(`A's domain ${domain}`, asSent(valid('lookup-account', { accountDomain: domain }))),
      ),
      hidden(
        `its account with A's campaign`,
        withQuery(valid('lookup-account'), [
          ['domain', B_DOMAIN],
          ['icpId', `${firstCampaign}`],
        ]),
      ),
      hidden(
        `A's account id with its domain`,
        withQuery(valid('lookup-account'), [
          ['domain', B_DOMAIN],
          ['id', `${A_IDS.accounts[0]}`],
        ]),
      ),
    ],
    'exclude-account': () => [
      own(
        `A's domain on its own list`,
        withJson(valid('exclude-account'), { company_url: 'https://www.zorblax.com' }),
        async (body) => {
          expect(body).toEqual({ success: true });
          // It acts on B: the domain is now excluded for B (A's list is compared at the end).
          const eligibility = withJson(valid('check-eligibility'), { emails: ['ysolde@zorblax.com'] });
          const check = await fetch(`${target.apiUrl}${eligibility.url}`, {
            method: eligibility.method,
            headers: eligibility.headers,
            body: eligibility.body,
          });
          expect(((await check.json()) as Json).results).toEqual([
            { email: 'ysolde@zorblax.com', eligible: false, reasons: ['globally_excluded'] },
          ]);
        },
      ),
    ],
    'search-jobs': () => [
      own(`A's domain in its own jobs`, asSent(valid('search-jobs', { jobDomain: 'zorblax.com' })), (body) =>
        expect(body).toEqual({ domain: 'zorblax.com', next: 0, jobs: [] }),
      ),
      refused(
        `A's cursor on A's domain`,
        withQuery(valid('search-jobs', { jobDomain: 'zorblax.com' }), [['cursor', `${a.jobCursor}`]]),
      ),
      refused(`A's cursor on its domain`, withQuery(valid('search-jobs'), [['cursor', `${a.jobCursor}`]])),
    ],
    'get-analytics-overview': () => [
      // The push above left one pending assignment, which no overview figure counts.
      own('its overview', asSent(valid('get-analytics-overview')), (body) =>
        expect(body).toEqual(expectedOverview(modelOf(smallDocument()))),
      ),
    ],
    'list-webhooks': () => [
      own('its webhooks', asSent(valid('list-webhooks')), (body) =>
        expect((body.webhooks as { id: number }[]).map((webhook) => webhook.id)).toEqual([b.webhookId]),
      ),
    ],
    'create-webhook': () => [
      own('a webhook of its own', withJson(valid('create-webhook'), { events: ['positive_reply'] }), (body) =>
        expect(body).toMatchObject({ url: target.webhookUrl, events: ['positive_reply'] }),
      ),
    ],
    'get-webhook': () => [hidden(`A's webhook`, asSent(valid('get-webhook', ofA)))],
    'update-webhook': () => [
      hidden(`disabling A's webhook`, withJson(valid('update-webhook', ofA), { enabled: false }, true)),
      hidden(
        `redirecting A's webhook`,
        withJson(valid('update-webhook', ofA), {
          url: `${ctx.receiverUrl}/stolen`,
          events: ['positive_reply'],
        }),
      ),
    ],
    'delete-webhook': () => [hidden(`A's webhook`, asSent(valid('delete-webhook', ofA)))],
    'test-webhook': () => [hidden(`A's webhook`, asSent(valid('test-webhook', ofA)))],
    'rotate-webhook-secret': () => [hidden(`A's webhook`, asSent(valid('rotate-webhook-secret', ofA)))],
    'list-webhook-deliveries': () => [
      hidden(`A's webhook`, asSent(valid('list-webhook-deliveries', ofA))),
      own(
        `its webhook after A's delivery`,
        withQuery(valid('list-webhook-deliveries'), [['cursor', `${a.deliveryId}`]]),
        (body) =>
          expect(
            (body.data as { webhook_id: number }[]).every((delivery) => delivery.webhook_id === b.webhookId),
          ).toBe(true),
      ),
    ],
    'redeliver-webhook-delivery': () => [
      hidden(
        `A's delivery of A's webhook`,
        asSent(valid('redeliver-webhook-delivery', { ...ofA, deliveryId: a.deliveryId })),
      ),
      hidden(
        `A's delivery under its webhook`,
        asSent(valid('redeliver-webhook-delivery', { deliveryId: a.deliveryId })),
      ),
      hidden(
        `its delivery under A's webhook`,
        asSent(valid('redeliver-webhook-delivery', { ...ofA, deliveryId: b.deliveryId })),
      ),
    ],
    'list-provider-connections': () => [
      own('its connections', asSent(valid('list-provider-connections')), (body) =>
        expect((body.connections as { id: number }[]).map((connection) => connection.id)).toEqual([
          b.providerConnectionId,
        ]),
      ),
    ],
    'create-provider-connection': () => [
      own('a connection of its own', asSent(valid('create-provider-connection')), (body) => {
        expect(body.id).not.toBe(a.providerConnectionId);
        expect(providerWebhookOf(body.webhook_url as string)).toMatchObject({
          organization: b.orgId,
          connection: body.id,
        });
      }),
    ],
    'get-provider-connection': () => [
      hidden(`A's connection`, asSent(valid('get-provider-connection', connectionOfA))),
    ],
    'update-provider-connection': () => [
      hidden(`A's connection`, asSent(valid('update-provider-connection', connectionOfA))),
    ],
    'delete-provider-connection': () => [
      hidden(`A's connection`, asSent(valid('delete-provider-connection', connectionOfA))),
    ],
    'rotate-provider-webhook-url': () => [
      hidden(`A's connection`, asSent(valid('rotate-provider-webhook-url', connectionOfA))),
    ],
    'check-provider-connection': () => [
      hidden(`A's connection`, asSent(valid('check-provider-connection', connectionOfA))),
    ],
    'list-provider-unmatched': () => [
      hidden(`A's connection`, asSent(valid('list-provider-unmatched', connectionOfA))),
      hidden(
        `A's connection from a cursor`,
        withQuery(valid('list-provider-unmatched', connectionOfA), [
          ['cursor', '2099-01-01T00:00:00.000Z#z'],
        ]),
      ),
    ],
    'list-provider-campaigns': () => [
      hidden(`A's connection`, asSent(valid('list-provider-campaigns', connectionOfA))),
    ],
    'get-sequence-provider-link': () => [
      hidden(`A's sequence`, asSent(valid('get-sequence-provider-link', sequenceOfAOnly))),
    ],
    'put-sequence-provider-link': () => [
      hidden(`A's sequence`, asSent(valid('put-sequence-provider-link', sequenceOfAOnly))),
      hidden(`A's connection on B's sequence`, asSent(valid('put-sequence-provider-link', connectionOfA))),
    ],
    'delete-sequence-provider-link': () => [
      hidden(`A's sequence`, asSent(valid('delete-sequence-provider-link', sequenceOfAOnly))),
    ],
    // Another organization's connection token never touches this organization: A's URL with B's token,
    // B's connection under A's organization, and A's connection and token under B's are all refused.
    'receive-provider-webhook': () => [
      deniedWebhook(`A's connection with its token`, { ...webhookOfA, token: webhookOfB.token }),
      deniedWebhook(`its connection and token under A's organization`, {
        ...webhookOfB,
        organization: a.orgId,
      }),
      deniedWebhook(`A's connection and token under its organization`, {
        ...webhookOfA,
        organization: b.orgId,
      }),
      own(`its own connection, about A's contact`, replyAboutA(webhookOfB), async (body) => {
        expect(body).toEqual({ received: true });
        // Queued: once its consumer is done, it is B's, kept as unmatched (B has no such contact or
        // campaign). A's unmatched events and campaigns are compared at the end.
        const api = apiClient({ apiUrl: target.apiUrl }, b.apiKey);
        await waitFor(
          async () => {
            const page = await api.get(`/provider-connections/${b.providerConnectionId}/unmatched`);
            expect(page.status).toBe(200);
            expect(page.body.data).toHaveLength(1);
          },
          { what: "B's unmatched event" },
        );
      }),
    ],
    mcp: () => [
      mcpError('no token', {}),
      mcpError(`A's API key as a bearer token`, { authorization: `Bearer ${a.apiKey}` }),
      mcpError(`its API key`, { 'x-api-key': b.apiKey }),
      ...Object.values(mcpProbes(ctx)).flat(),
    ],
    'oauth-protected-resource': documentProbe('oauth-protected-resource'),
    'oauth-protected-resource-mcp': documentProbe('oauth-protected-resource-mcp'),
    'oauth-authorization-server': documentProbe('oauth-authorization-server'),
    'oauth-authorize': () => [
      {
        what: `A's client with its redirect URI`,
        request: asSent(valid('oauth-authorize', { oauth: { ...oauthOfA, redirectUri: B_REDIRECT } })),
        expect: { kind: 'page', status: 400 },
      },
      // B's admin may connect A's operator client to no organization: A's is not theirs, B is not its.
      {
        what: `A's client, signed in as B's admin`,
        request: asSent(valid('oauth-authorize', { oauth: { ...oauthOfA, redirectUri: A_REDIRECT } })),
        expect: { kind: 'page', status: 403 },
      },
    ],
    'oauth-authorize-submit': () => [
      ...[b.orgId, a.orgId].map(
        (orgId): Probe => ({
          what: `A's client approved by B's admin for organization ${orgId === a.orgId ? 'A' : 'B'}`,
          request: withForm(
            valid('oauth-authorize-submit', { oauth: { ...oauthOfA, redirectUri: A_REDIRECT } }),
            {
              orgId: String(orgId),
            },
          ),
          expect: { kind: 'page', status: 403 },
        }),
      ),
      {
        what: `its own client approved for A's organization`,
        request: withForm(valid('oauth-authorize-submit'), { orgId: String(a.orgId) }),
        expect: { kind: 'page', status: 403 },
      },
      {
        what: `its own client approved with A's admin's CSRF token`,
        request: withForm(valid('oauth-authorize-submit'), { csrf: a.member.csrfToken }),
        expect: { kind: 'page', status: 403 },
      },
      {
        what: `A's client approved to its redirect URI`,
        request: asSent(valid('oauth-authorize-submit', { oauth: { ...oauthOfA, redirectUri: B_REDIRECT } })),
        expect: { kind: 'page', status: 400 },
      },
    ],
    // B's admin, signed in to the dashboard, aimed at A's items: each is not found, and nothing of A changes.
    dashboard: () => [
      {
        what: 'its own overview',
        request: asSent(valid('dashboard')),
        expect: { kind: 'page', status: 200 },
      },
    ],
    'dashboard-page': () => {
      const form = (page: string, fields: Record<string, string>): ProbeRequest => ({
        method: 'POST',
        url: `/dashboard/${page}`,
        headers: { cookie: target.member.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: target.member.csrfToken, ...fields }).toString(),
      });
      return [
        {
          what: 'its own webhooks page',
          request: asSent(valid('dashboard-page')),
          expect: { kind: 'page', status: 200 },
        },
        {
          what: `A's organization picked`,
          request: form('organizations', { orgId: String(a.orgId) }),
          expect: { kind: 'page', status: 404 },
        },
        {
          what: `A's OAuth client revoked`,
          request: form('assistant', { action: 'revoke-client', clientId: a.client.clientId }),
          expect: { kind: 'page', status: 404 },
        },
        {
          what: `the assistant A connected, disconnected`,
          request: form('assistant', { action: 'revoke-assistant', clientId: a.assistantClientId }),
          expect: { kind: 'page', status: 404 },
        },
        {
          what: `A's campaign's pending contacts approved`,
          request: form('approvals', { action: 'approve-all', campaign: String(firstCampaign) }),
          expect: { kind: 'page', status: 404 },
        },
        {
          what: `A's campaign's pending contacts rejected`,
          request: form('approvals', { action: 'reject-all', campaign: String(firstCampaign) }),
          expect: { kind: 'page', status: 404 },
        },
        {
          what: `a form with A's admin's CSRF token`,
          request: {
            ...form('settings', { cooldownDays: '3' }),
            body: new URLSearchParams({ csrf: a.member.csrfToken, cooldownDays: '3' }).toString(),
          },
          expect: { kind: 'page', status: 403 },
        },
      ];
    },
    'dashboard-item': () => {
      const item = (page: string, id: number): ProbeRequest => ({
        ...asSent(valid('dashboard-item')),
        url: `/dashboard/${page}/${id}`,
      });
      const act = (page: string, id: number, action: string): ProbeRequest => ({
        method: 'POST',
        url: `/dashboard/${page}/${id}`,
        headers: { cookie: target.member.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: target.member.csrfToken, action }).toString(),
      });
      return [
        {
          what: `A's webhook`,
          request: item('webhooks', a.webhookId),
          expect: { kind: 'page', status: 404 },
        },
        {
          what: `A's provider connection`,
          request: item('providers', a.providerConnectionId),
          expect: { kind: 'page', status: 404 },
        },
        ...['test', 'disable', 'rotate', 'delete'].map(
          (action): Probe => ({
            what: `A's webhook: ${action}`,
            request: act('webhooks', a.webhookId, action),
            expect: { kind: 'page', status: 404 },
          }),
        ),
        ...['rotate', 'delete'].map(
          (action): Probe => ({
            what: `A's provider connection: ${action}`,
            request: act('providers', a.providerConnectionId, action),
            expect: { kind: 'page', status: 404 },
          }),
        ),
      ];
    },
    'oauth-register': () => [
      {
        what: `a registration naming A's redirect URI`,
        request: withJson(valid('oauth-register'), { redirect_uris: [A_REDIRECT] }),
        expect: { kind: 'created' },
      },
    ],
    'oauth-token': () => [
      {
        what: `its client with A's secret`,
        request: asSent(
          valid('oauth-token', { oauth: { ...target.oauth, clientSecret: a.client.clientSecret } }),
        ),
        expect: { kind: 'oauth', status: 401, error: 'invalid_client' },
      },
      {
        what: `A's client with its secret`,
        request: asSent(
          valid('oauth-token', { oauth: { ...oauthOfA, clientSecret: b.client.clientSecret } }),
        ),
        expect: { kind: 'oauth', status: 401, error: 'invalid_client' },
      },
      // A code is redeemed once, by the client it was issued to: A's is refused, and stays A's to redeem.
      {
        what: `A's authorization code`,
        request: withForm(valid('oauth-token'), {
          grant_type: 'authorization_code',
          code: a.code,
          redirect_uri: A_REDIRECT,
          code_verifier: a.verifier,
        }),
        expect: { kind: 'oauth', status: 400, error: 'invalid_grant' },
      },
      // A refresh token is bound to its client: B's is refused it, and A's assistant keeps it.
      {
        what: `the refresh token of an assistant A connected`,
        request: withForm(valid('oauth-token'), {
          grant_type: 'refresh_token',
          refresh_token: a.refreshToken,
        }),
        expect: { kind: 'oauth', status: 400, error: 'invalid_grant' },
      },
    ],
    openapi: documentProbe('openapi'),
    docs: documentProbe('docs'),
    'docs-asset': () =>
      REFERENCE_ASSETS.map((asset) =>
        own(`the asset ${asset}`, asSent(valid('docs-asset', { docsAsset: asset }))),
      ),
  };
}
