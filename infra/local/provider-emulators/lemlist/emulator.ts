import { LEMLIST_FACTS as FACTS } from '#providers/lemlist/facts.ts';
import { copyJson, isRecord, isValidEmail, type JsonObject, json, stringField, text } from '../http.ts';
import { lemlistId } from '../ids.ts';
import type { EventContext, NativeEvent, ProviderEmulatorSpec, Route, RouteContext } from '../spec.ts';
import { type Campaign, type EmulatedLead, leadsInCampaign, sameEmail, type Workspace } from '../state.ts';

/**
 * lemlist's API (https://api.lemlist.com/api), HTTP Basic auth with an empty
 * user and the API key as password (https://developer.lemlist.com/api-reference/getting-started/authentication),
 * or the key as the `access_token` query parameter, which the API takes beside
 * Basic auth (classic reference, https://github.com/l3mpire/lemlist-developer
 * source/index.html.md, "Authentication": "Or pass your API key as a query
 * parameter access_token"). A wrong key answers 401 with the reference's text
 * "The authentication you supplied is incorrect".
 * Endpoints (classic reference: https://github.com/l3mpire/lemlist-developer,
 * source/includes/_campaigns.md, _leads.md, _hooks.md, _team.md; current one:
 * https://developer.lemlist.com/api-reference, its OpenAPI document
 * https://developer.lemlist.com/api-reference/openapi/v2.json):
 *
 * - GET    /team                                                    the team (`_id` tea_…, name, userIds, …)
 *          OpenAPI `GET /team` ("Get Team"); 401 "The authentication you supplied is incorrect"
 * - GET    /campaigns?version=v2&offset=&limit=&page=&sortBy=createdAt&sortOrder=&status=
 *          an array of campaigns {_id, name, labels, createdAt, createdBy, status, hasError?, errors?};
 *          limit defaults to and tops at 100; `page` (1-based) pages by `limit` when no offset is given;
 *          ascending by createdAt unless sortOrder=desc     endpoints/campaigns/get-many-campaigns
 * - POST   /campaigns/{campaignId}/pause | /start                    {_id, state: 'paused' | 'running'}
 *          OpenAPI `POST /campaigns/{campaignId}/pause`, `/start` ("Pause Campaign", "Start Campaign")
 * - GET    /campaigns/{campaignId}
 * - POST   /campaigns/{campaignId}/leads/{email}?deduplicate=true   one lead per request; body = the lead's fields,
 *          custom variables as extra keys; answers the lead with its `_id` (lea_…)   endpoints/leads/create-lead-in-campaign
 * - GET    /campaigns/{campaignId}/leads                             endpoints/leads/get-campaign-leads
 * - GET    /leads/{email}?version=v2                                an array, one item per campaign of the lead:
 *          {_id, isPaused, state, status, source, variables: the lead's fields, contactId,
 *          campaign: {id, name, status}, sendingUser}; v2 is the only version and its default
 *          endpoints/leads/get-lead-by-email
 * - POST   /leads/pause/{leadIdOrEmail}?campaignId=                 endpoints/leads/pause-lead
 * - POST   /leads/start/{leadIdOrEmail}?campaignId=                 endpoints/leads/resume-paused-lead
 * - DELETE /campaigns/{campaignId}/leads/{email}[?action=remove]    unsubscribe (or delete) a lead of a campaign
 * - POST   /hooks {targetUrl, type?, campaignId?}, GET /hooks, DELETE /hooks/{_id}
 *
 * lemlist answers errors as plain text. Its rate limit answers 429 with
 * Retry-After and X-RateLimit-Limit/-Remaining/-Reset (the reference's "Rate
 * Limit" section). No reply endpoint is emulated: the service does not reply
 * in thread through lemlist (`replyThreadNamedBy: null`). A hook posts the
 * activity object (`_id` act_…, `type`, `leadEmail`, `campaignId`, …), as the
 * fixtures in test/fixtures/providers/lemlist/ show it.
 */

/** The reference's text for a key it does not know (every endpoint's 401). */
const WRONG_KEY = 'The authentication you supplied is incorrect';
// lemlist answers errors as plain text; the only 401 is a key it does not know.
const error = (status: number, message: string) => text(status, status === 401 ? WRONG_KEY : message);

/**
 * Campaign states the campaign endpoints set (POST /campaigns/{id}/pause, /start), by campaign:
 * the shared Campaign has no state; a campaign created through the control API is `running`.
 */
const campaignStates = new WeakMap<Campaign, string>();
const stateOf = (campaign: Campaign | undefined): string =>
  (campaign && campaignStates.get(campaign)) ?? 'running';

/** The page size GET /campaigns answers by default and at most (get-many-campaigns: "Default: 100. Maximum: 100."). */
const CAMPAIGN_PAGE_LIMIT = 100;

const received = (lead: EmulatedLead): Record<string, unknown> =>
  isRecord(lead.received) ? lead.received : {};

function leadObject(workspace: Workspace, lead: EmulatedLead): JsonObject {
  return {
    ...(received(lead) as JsonObject),
    _id: lead.leadId,
    email: lead.email,
    campaignId: lead.campaignId,
    campaignName: workspace.campaigns.get(lead.campaignId)?.name ?? null,
    leadUrl: lead.email ? `https://api.lemlist.com/api/leads/${encodeURIComponent(lead.email)}` : null,
    isPaused: lead.status === 'paused',
    state: lead.status === 'active' ? (lead.messages.length > 0 ? 'contacted' : 'scanned') : lead.status,
  };
}

function addLead(context: RouteContext) {
  const { workspace, params, query, body, emulator } = context;
  const campaign = workspace.campaigns.get(params.campaignId!);
  if (!campaign) return error(404, 'Campaign not found');
  // One lead per request: the path names it (maxLeadsPerRequest is 1); the body is its fields.
  if (Array.isArray(body)) return error(400, `One lead per request (at most ${FACTS.maxLeadsPerRequest})`);
  if (body !== undefined && !isRecord(body)) return error(400, 'Body must be a JSON object');
  const fields = body ?? {};
  const email = params.email!.trim();
  if (!isValidEmail(email)) return error(400, 'Invalid email');
  const key = email.toLowerCase();
  if (workspace.unsubscribed.has(key) || workspace.blocked.has(key))
    return error(400, 'Lead is unsubscribed');
  const enrolled = workspace.leads.filter((lead) => lead.status !== 'removed' && sameEmail(lead.email, key));
  if (enrolled.some((lead) => lead.campaignId === campaign.id))
    return error(409, 'Lead already in the campaign');
  // deduplicate=true: "search email address in another campaign, will not insert the lead if … already inserted".
  if (query.get('deduplicate') === 'true' && enrolled.length > 0) {
    return error(409, 'Lead already exists in another campaign');
  }
  const lead = emulator.enroll(workspace, {
    leadId: lemlistId('lea'),
    campaignId: campaign.id,
    received: copyJson(fields),
    email,
    linkedinUrl: stringField(fields, 'linkedinUrl'),
    firstName: stringField(fields, 'firstName'),
    lastName: stringField(fields, 'lastName'),
    companyName: stringField(fields, 'companyName'),
    senderAccount: workspace.mailbox,
    providerIds: { sendUserId: lemlistId('usr') },
  });
  return json(200, leadObject(workspace, lead));
}

/** The leads of the workspace a path names by `lea_…` id or by email, in the `campaignId` query's campaign when given. */
function leadsNamed(context: RouteContext): EmulatedLead[] {
  const named = context.params.lead!;
  const campaignId = context.query.get('campaignId');
  return context.workspace.leads.filter(
    (lead) =>
      lead.status !== 'removed' &&
      (lead.leadId === named || sameEmail(lead.email, named)) &&
      (campaignId === null || lead.campaignId === campaignId),
  );
}

function pauseLead(context: RouteContext) {
  const leads = leadsNamed(context);
  if (leads.length === 0) return error(404, 'Lead not found');
  for (const lead of leads) if (lead.status === 'active') context.emulator.setStatus(lead, 'paused');
  return json(
    200,
    leads.map((lead) => leadObject(context.workspace, lead)),
  );
}

function resumeLead(context: RouteContext) {
  const leads = leadsNamed(context);
  if (leads.length === 0) return error(404, 'Lead not found');
  for (const lead of leads) if (lead.status === 'paused') lead.status = 'active';
  return json(
    200,
    leads.map((lead) => leadObject(context.workspace, lead)),
  );
}

/** The lead in one of its campaigns, as GET /leads/{email}?version=v2 answers it (get-lead-by-email). */
function leadV2Object(workspace: Workspace, lead: EmulatedLead): JsonObject {
  const campaign = workspace.campaigns.get(lead.campaignId);
  return {
    _id: lead.leadId,
    updatedAt: lead.addedAt,
    isPaused: lead.status === 'paused',
    state: lead.messages.length > 0 ? 'contacted' : 'scanned',
    status: lead.status === 'paused' ? 'paused' : lead.status === 'completed' ? 'done' : 'running',
    personalized: false,
    source: 'api',
    // The lead's own fields and custom variables, as the add carried them, with its email.
    variables: { ...(received(lead) as JsonObject), email: lead.email },
    contactId: `ctc_${lead.leadId.slice(4)}`,
    campaign: { id: lead.campaignId, name: campaign?.name ?? null, status: stateOf(campaign) },
    sendingUser: {},
  };
}

function leadByEmail(context: RouteContext) {
  const version = context.query.get('version');
  if (version !== null && version !== 'v2') return error(400, 'version must be v2');
  const leads = context.workspace.leads.filter(
    (lead) => lead.status !== 'removed' && sameEmail(lead.email, context.params.email!),
  );
  if (leads.length === 0) return error(404, 'Lead not found');
  // v2, the only version and the default: an array with the lead in each of its campaigns.
  return json(
    200,
    leads.map((lead) => leadV2Object(context.workspace, lead)),
  );
}

/** The campaign as GET /campaigns lists it (get-many-campaigns). */
const campaignObject = (workspace: Workspace, campaign: Campaign): JsonObject => ({
  _id: campaign.id,
  name: campaign.name,
  labels: [],
  createdAt: campaign.createdAt,
  createdBy: `usr_${workspace.workspaceId.replace(/-/g, '').slice(0, 17)}`,
  status: stateOf(campaign),
});

/** A non-negative integer query parameter, its default when absent, or null when it is not one. */
function countParam(query: URLSearchParams, name: string, fallback: number): number | null {
  const value = query.get(name);
  if (value === null) return fallback;
  return /^\d+$/.test(value) ? Number(value) : null;
}

function listCampaigns({ workspace, query }: RouteContext) {
  const limit = countParam(query, 'limit', CAMPAIGN_PAGE_LIMIT);
  const page = countParam(query, 'page', 1);
  if (limit === null || page === null) return error(400, 'limit and page must be integers');
  const pageSize = Math.min(Math.max(limit, 1), CAMPAIGN_PAGE_LIMIT);
  const offset = countParam(query, 'offset', (Math.max(page, 1) - 1) * pageSize);
  if (offset === null) return error(400, 'offset must be an integer');
  const status = query.get('status');
  // Stable sort: campaigns created within the same millisecond keep their creation order.
  const campaigns = [...workspace.campaigns.values()]
    .filter((campaign) => status === null || stateOf(campaign) === status)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  if (query.get('sortOrder') === 'desc') campaigns.reverse();
  return json(
    200,
    campaigns.slice(offset, offset + pageSize).map((campaign) => campaignObject(workspace, campaign)),
  );
}

/** POST /campaigns/{campaignId}/pause and /start: the campaign's new state. */
const setCampaignState =
  (state: 'paused' | 'running') =>
  ({ workspace, params }: RouteContext) => {
    const campaign = workspace.campaigns.get(params.campaignId!);
    if (!campaign) return error(404, 'Campaign not found');
    campaignStates.set(campaign, state);
    return json(200, { _id: campaign.id, state });
  };

function unsubscribeOrDelete(context: RouteContext) {
  const { workspace, params, query, emulator } = context;
  const campaign = workspace.campaigns.get(params.campaignId!);
  if (!campaign) return error(404, 'Campaign not found');
  const lead = leadsInCampaign(workspace, campaign.id).find((item) => sameEmail(item.email, params.email!));
  if (!lead) return error(404, 'Lead not found');
  const answer: JsonObject = { _id: lead.leadId, email: lead.email };
  if (query.get('action') === 'remove') {
    emulator.setStatus(lead, 'removed');
  } else {
    // "Unsubscribe a lead from all campaigns if he belongs to the specified campaign."
    for (const other of workspace.leads) {
      if (other.status !== 'removed' && sameEmail(other.email, lead.email))
        emulator.setStatus(other, 'unsubscribed');
    }
    if (lead.email) workspace.unsubscribed.add(lead.email.toLowerCase());
  }
  return json(200, answer);
}

function addHook(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const url = stringField(fields, 'targetUrl');
  if (!url || !URL.canParse(url)) return error(400, 'targetUrl is required');
  const campaignId = stringField(fields, 'campaignId');
  if (campaignId !== null && !context.workspace.campaigns.has(campaignId))
    return error(404, 'Campaign not found');
  const type = stringField(fields, 'type');
  const registration = context.emulator.registerWebhook(context.workspace, {
    url,
    campaignId,
    eventTypes: type ? [type] : null,
    secretKey: null,
  });
  return json(200, hookObject(registration.id, url, type, campaignId));
}

const hookObject = (id: string, url: string, type: string | null, campaignId: string | null): JsonObject => ({
  _id: id,
  targetUrl: url,
  createdAt: new Date().toISOString(),
  ...(type ? { type } : {}),
  ...(campaignId ? { campaignId } : {}),
});

const routes: Route[] = [
  {
    method: 'GET',
    path: '/team',
    handle: ({ workspace }) => {
      const userId = `usr_${workspace.workspaceId.replace(/-/g, '').slice(0, 17)}`;
      return json(200, {
        _id: teamId(workspace),
        name: 'Emulated team',
        userIds: [userId],
        createdBy: userId,
        createdAt: '2024-01-01T00:00:00.000Z',
        hooks: workspace.webhooks.map((hook) =>
          hookObject(hook.id, hook.url, hook.eventTypes?.[0] ?? null, hook.campaignId),
        ),
        beta: [],
        invitedUsers: [],
      });
    },
  },
  { method: 'GET', path: '/campaigns', handle: listCampaigns },
  { method: 'POST', path: '/campaigns/:campaignId/pause', handle: setCampaignState('paused') },
  { method: 'POST', path: '/campaigns/:campaignId/start', handle: setCampaignState('running') },
  {
    method: 'GET',
    path: '/campaigns/:campaignId',
    handle: ({ workspace, params }) => {
      const campaign = workspace.campaigns.get(params.campaignId!);
      if (!campaign) return error(404, 'Campaign not found');
      return json(200, {
        _id: campaign.id,
        name: campaign.name,
        status: stateOf(campaign),
        createdAt: campaign.createdAt,
      });
    },
  },
  { method: 'POST', path: '/campaigns/:campaignId/leads/:email', addsLeads: true, handle: addLead },
  {
    method: 'GET',
    path: '/campaigns/:campaignId/leads',
    handle: ({ workspace, params }) => {
      if (!workspace.campaigns.has(params.campaignId!)) return error(404, 'Campaign not found');
      return json(
        200,
        leadsInCampaign(workspace, params.campaignId!)
          .reverse()
          .map((lead) => leadObject(workspace, lead)),
      );
    },
  },
  { method: 'GET', path: '/leads/:email', handle: leadByEmail },
  { method: 'POST', path: '/leads/pause/:lead', handle: pauseLead },
  { method: 'POST', path: '/leads/start/:lead', handle: resumeLead },
  { method: 'DELETE', path: '/campaigns/:campaignId/leads/:email', handle: unsubscribeOrDelete },
  { method: 'POST', path: '/hooks', handle: addHook },
  {
    method: 'GET',
    path: '/hooks',
    handle: ({ workspace }) =>
      json(
        200,
        workspace.webhooks.map((hook) =>
          hookObject(hook.id, hook.url, hook.eventTypes?.[0] ?? null, hook.campaignId),
        ),
      ),
  },
  {
    method: 'DELETE',
    path: '/hooks/:hookId',
    handle: ({ workspace, params }) => {
      const index = workspace.webhooks.findIndex((hook) => hook.id === params.hookId);
      if (index < 0) return error(404, 'Hook not found');
      const [hook] = workspace.webhooks.splice(index, 1);
      return json(200, hookObject(hook!.id, hook!.url, hook!.eventTypes?.[0] ?? null, hook!.campaignId));
    },
  },
];

const teamId = (workspace: Workspace) => `tea_${workspace.workspaceId.replace(/-/g, '').slice(0, 17)}`;

/** The interest activities played for a classification; lemlist has none for a neutral reply. */
const CLASSIFICATION_EVENTS = {
  positive: 'emailsInterested',
  negative: 'emailsNotInterested',
  neutral: null,
} as const;

function nativeEvents(context: EventContext): NativeEvent[] {
  const { lead, campaign, at, message, reply, workspace } = context;
  // The activity carries the lead's own fields merged in, then lemlist's activity fields.
  const base: JsonObject = {
    ...(received(lead) as JsonObject),
    isFirst: true,
    teamId: teamId(workspace),
    sendUserId: lead.providerIds.sendUserId ?? null,
    sendUserEmail: lead.senderAccount,
    sendUserName: 'Emulated Sender',
    leadId: lead.leadId,
    leadFirstName: lead.firstName,
    leadLastName: lead.lastName,
    leadEmail: lead.email,
    campaignId: campaign.id,
    campaignName: campaign.name,
    sequenceId: `seq_${campaign.id.slice(4)}`,
    totalSequenceStep: 2,
  };
  const ofEmail: JsonObject = message
    ? { sequenceStep: message.step - 1, emailId: message.id, sequenceTested: 'A', stepTested: 'A' }
    : {};
  const activity = (type: string, extra: JsonObject = {}): NativeEvent => ({
    name: type,
    payload: { ...base, _id: lemlistId('act'), type, createdAt: at, ...extra },
  });
  switch (context.type) {
    case 'sent':
      return [activity('emailsSent', { ...ofEmail, subject: message!.subject, text: message!.text })];
    case 'opened':
      return [activity('emailsOpened', ofEmail)];
    case 'clicked':
      return [
        activity('emailsClicked', {
          ...ofEmail,
          url: `https://${workspace.mailbox.split('@')[1]}/emulated-link`,
        }),
      ];
    case 'replied': {
      const replied = activity('emailsReplied', {
        ...ofEmail,
        subject: reply!.subject,
        text: reply!.text,
        messagePreview: reply!.text.slice(0, 100),
      });
      const interest = context.classification ? CLASSIFICATION_EVENTS[context.classification] : null;
      return interest ? [replied, activity(interest, ofEmail)] : [replied];
    }
    case 'bounced':
      return [activity('emailsBounced', ofEmail)];
    case 'unsubscribed':
      return [activity('emailsUnsubscribed', ofEmail)];
    case 'completed':
      return [activity('campaignComplete')];
  }
}

export const lemlistSpec: ProviderEmulatorSpec = {
  provider: 'lemlist',
  basePath: new URL(FACTS.defaultBaseUrl).pathname,
  apiKeyOf: (request, url) => {
    const header = request.headers.authorization;
    const match = header ? /^Basic\s+(.+)$/i.exec(header) : null;
    // Without Basic auth, the key may come as the `access_token` query parameter (see the top of this file).
    if (!match) return url.searchParams.get('access_token') || null;
    const decoded = Buffer.from(match[1]!.trim(), 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    // The user is empty; the key is the password.
    return separator >= 0 && decoded.slice(separator + 1) !== '' ? decoded.slice(separator + 1) : null;
  },
  error,
  rateLimitHeaders: (limit, resetAt) => ({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': resetAt.toISOString(),
  }),
  newCampaignId: () => lemlistId('cam'),
  newMessageId: () => lemlistId('eml'),
  newReplyId: () => lemlistId('act'),
  supports: ['sent', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed', 'completed'],
  nativeEvents,
  routes,
};
