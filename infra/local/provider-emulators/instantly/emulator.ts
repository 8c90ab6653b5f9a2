import { INSTANTLY_FACTS as FACTS } from '#providers/instantly/facts.ts';
import {
  booleanField,
  copyJson,
  idField,
  integerParam,
  isRecord,
  isValidEmail,
  type JsonObject,
  type JsonValue,
  json,
  type Reply,
  stringField,
} from '../http.ts';
import { uuid } from '../ids.ts';
import type { EventContext, NativeEvent, ProviderEmulatorSpec, Route, RouteContext } from '../spec.ts';
import { type Campaign, type EmulatedLead, sameEmail, type Workspace } from '../state.ts';

/**
 * Instantly's API v2 (https://api.instantly.ai/api/v2), `Authorization:
 * Bearer <API key>` (https://developer.instantly.ai/getting-started/authorization).
 * Endpoints (https://developer.instantly.ai/api-reference), shapes as there and as Instantly's
 * SDK generates them from it (github.com/Instantly-ai/instantly-starter-kit,
 * js/sdk/src/generated/operations.ts and models.ts):
 *
 * - GET    /workspaces/current      api-reference/workspace (the Workspace object: api-reference/schemas/workspace)
 * - GET    /campaigns               api-reference/campaign (`limit` 1–100, `starting_after`; `{items, next_starting_after}`)
 * - POST   /campaigns               api-reference/campaign (a draft, `name` and `campaign_schedule` required)
 * - POST   /campaigns/{id}/activate api-reference/campaign (status 1)
 * - POST   /campaigns/{id}/pause    api-reference/campaign (status 2)
 * - GET    /campaigns/{id}          api-reference/campaign/get-campaign (the Campaign object: api-reference/schemas/campaign)
 * - POST   /leads                   api-reference/lead/create-a-lead (one lead, `campaign`)
 * - POST   /leads/add               api-reference/lead/add-leads-in-bulk-to-a-campaign-or-list (≤ maxLeadsPerRequest)
 * - POST   /leads/list              api-reference/lead/list-leads (filters `campaign`, `contacts`, `ids`; cursor `starting_after`)
 * - GET    /leads/{id}              api-reference/lead/get-a-lead
 * - DELETE /leads/{id}              api-reference/lead/delete-a-lead (v2 has no per-lead pause)
 * - POST   /emails/reply            api-reference/email/reply-to-an-email
 * - POST   /webhooks, GET /webhooks api-reference/webhook/create-webhook
 *
 * Leads answer the Lead object (api-reference/schemas/lead): its own fields
 * (`job_title`, `website`, `phone`, …), `company_domain`, `status_summary`, and
 * `payload` holding the custom variables. A workspace is what the rate limit
 * is counted for, whichever of its keys calls (getting-started/rate-limit): two
 * keys of one workspace are made with the control API's `sameWorkspaceAs`.
 *
 * Errors are Fastify's `{statusCode, error, message}`. Webhook payloads follow
 * the documented schema (https://developer.instantly.ai/guides/webhook-events)
 * as the fixtures in test/fixtures/providers/instantly/ show it.
 */

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};
const error = (status: number, message: string): Reply =>
  json(status, { statusCode: status, error: REASONS[status] ?? 'Error', message });

/** The lead fields Instantly keeps as columns; any other key of a lead goes to its payload (custom variables). */
const LEAD_COLUMNS = [
  'email',
  'first_name',
  'last_name',
  'company_name',
  'job_title',
  'website',
  'phone',
  'personalization',
] as const;
/** Request options of POST /leads that are not lead data. */
const CREATE_OPTIONS = [
  'campaign',
  'list_id',
  'skip_if_in_workspace',
  'skip_if_in_campaign',
  'skip_if_in_list',
  'blocklist_id',
  'verify_leads_for_lead_finder',
  'verify_leads_on_import',
  'assigned_to',
];

const received = (lead: EmulatedLead): Record<string, unknown> =>
  isRecord(lead.received) ? lead.received : {};

/** What Instantly keeps of a workspace besides the shared state: its Workspace object's fields. */
const workspaceDetails = new WeakMap<Workspace, { createdAt: string; owner: string }>();
function workspaceObject(workspace: Workspace): JsonObject {
  let details = workspaceDetails.get(workspace);
  if (!details) {
    details = { createdAt: new Date().toISOString(), owner: uuid() };
    workspaceDetails.set(workspace, details);
  }
  return {
    id: workspace.workspaceId,
    timestamp_created: details.createdAt,
    timestamp_updated: details.createdAt,
    owner: details.owner,
    name: `Emulated workspace ${workspace.workspaceId.slice(0, 8)}`,
    plan_id: null,
    add_unsub_to_block: false,
    org_logo_url: null,
    org_client_domain: null,
  };
}

/** Campaign status (api-reference/schemas/campaign): 0 draft, 1 active, 2 paused, 3 completed, … */
const DRAFT = 0;
const ACTIVE = 1;
const PAUSED = 2;

/** What Instantly keeps of a campaign besides the shared state. A campaign made by the control API is active. */
interface CampaignDetails {
  status: number;
  schedule: JsonObject;
  updatedAt: string;
}
const campaignDetails = new WeakMap<Campaign, CampaignDetails>();
const DEFAULT_SCHEDULE: JsonObject = {
  schedules: [
    {
      name: 'Weekdays',
      timing: { from: '09:00', to: '17:00' },
      days: { 1: true, 2: true, 3: true, 4: true, 5: true },
      timezone: 'Etc/GMT+12',
    },
  ],
};
function detailsOf(campaign: Campaign): CampaignDetails {
  let details = campaignDetails.get(campaign);
  if (!details) {
    details = { status: ACTIVE, schedule: DEFAULT_SCHEDULE, updatedAt: campaign.createdAt };
    campaignDetails.set(campaign, details);
  }
  return details;
}

const campaignObject = (workspace: Workspace, campaign: Campaign): JsonObject => {
  const details = detailsOf(campaign);
  return {
    id: campaign.id,
    name: campaign.name,
    status: details.status,
    campaign_schedule: copyJson(details.schedule) as JsonObject,
    sequences: [],
    email_list: [workspace.mailbox],
    organization: workspace.workspaceId,
    timestamp_created: campaign.createdAt,
    timestamp_updated: details.updatedAt,
  };
};

/** A `campaign_schedule` as the Campaign object requires it: `schedules` with name, timing, days and timezone. */
function isSchedule(value: unknown): value is JsonObject {
  if (!isRecord(value) || !Array.isArray(value.schedules) || value.schedules.length === 0) return false;
  return value.schedules.every(
    (entry) =>
      isRecord(entry) &&
      typeof entry.name === 'string' &&
      isRecord(entry.timing) &&
      typeof entry.timing.from === 'string' &&
      typeof entry.timing.to === 'string' &&
      isRecord(entry.days) &&
      typeof entry.timezone === 'string',
  );
}

function listCampaigns(context: RouteContext) {
  const limit = integerParam(context.query, 'limit', 10);
  if (limit < 1 || limit > 100) return error(400, 'querystring/limit must be between 1 and 100');
  const all = [...context.workspace.campaigns.values()];
  const after = context.query.get('starting_after');
  const start = after === null ? 0 : all.findIndex((campaign) => campaign.id === after) + 1;
  const page = all.slice(start, start + limit);
  return json(200, {
    items: page.map((campaign) => campaignObject(context.workspace, campaign)),
    // As Instantly does, a full page names a cursor even when nothing follows it: the next page is empty.
    ...(page.length === limit ? { next_starting_after: page.at(-1)!.id } : {}),
  });
}

function createCampaign(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const name = stringField(fields, 'name');
  if (!name) return error(400, "body must have required property 'name'");
  if (!isSchedule(fields.campaign_schedule)) {
    return error(400, "body must have required property 'campaign_schedule' with its schedules");
  }
  const { workspace } = context;
  const campaign: Campaign = {
    id: uuid(),
    name,
    createdAt: context.emulator.now(),
    defaultSenderId: String(100_000 + workspace.campaigns.size + 1),
  };
  workspace.campaigns.set(campaign.id, campaign);
  // A new campaign is a draft: it sends nothing until activated.
  campaignDetails.set(campaign, {
    status: DRAFT,
    schedule: copyJson(fields.campaign_schedule) as JsonObject,
    updatedAt: campaign.createdAt,
  });
  return json(200, campaignObject(workspace, campaign));
}

const setCampaignStatus = (status: number) => (context: RouteContext) => {
  const campaign = context.workspace.campaigns.get(context.params.campaignId!);
  if (!campaign) return error(404, 'Campaign not found');
  const details = detailsOf(campaign);
  details.status = status;
  details.updatedAt = context.emulator.now();
  return json(200, campaignObject(context.workspace, campaign));
};

function leadObject(workspace: Workspace, lead: EmulatedLead): JsonObject {
  const fields = received(lead);
  const object: JsonObject = {
    id: lead.leadId,
    timestamp_created: lead.addedAt,
    timestamp_updated: lead.addedAt,
    organization: workspace.workspaceId,
    campaign: lead.campaignId,
    status:
      lead.status === 'paused' ? 2 : lead.status === 'completed' ? 3 : lead.status === 'bounced' ? -1 : 1,
    email_open_count: 0,
    email_reply_count: lead.replies.length,
    email_click_count: 0,
  };
  for (const column of LEAD_COLUMNS) {
    const value = fields[column];
    object[column] = value === undefined ? null : (value as JsonValue);
  }
  // The domain of the lead's address: what Instantly groups a company's leads by (`stop_for_company`).
  object.company_domain = lead.email?.split('@')[1]?.toLowerCase() ?? '';
  const last = lead.messages.at(-1);
  object.status_summary = last
    ? { lastStep: { from: 'campaign', stepID: String(last.step), timestamp_executed: last.at } }
    : {};
  object.payload = isRecord(fields.custom_variables) ? (fields.custom_variables as JsonObject) : {};
  return object;
}

type Skip = 'added' | 'in-campaign' | 'in-workspace' | 'blocklisted' | 'invalid';

/** Whether one lead is added to the campaign, or why not. */
function admission(
  workspace: Workspace,
  campaign: Campaign,
  email: string | null,
  options: { skipIfInWorkspace: boolean },
): Skip {
  if (!isValidEmail(email)) return 'invalid';
  const key = email.trim().toLowerCase();
  if (workspace.blocked.has(key) || workspace.unsubscribed.has(key)) return 'blocklisted';
  const enrolled = workspace.leads.filter((lead) => lead.status !== 'removed' && sameEmail(lead.email, key));
  // Never added twice to one campaign, whatever skip_if_in_campaign says.
  if (enrolled.some((lead) => lead.campaignId === campaign.id)) return 'in-campaign';
  if (options.skipIfInWorkspace && enrolled.length > 0) return 'in-workspace';
  return 'added';
}

function enroll(context: RouteContext, campaign: Campaign, entry: Record<string, unknown>, email: string) {
  const variables = isRecord(entry.custom_variables) ? entry.custom_variables : {};
  return context.emulator.enroll(context.workspace, {
    leadId: uuid(),
    campaignId: campaign.id,
    received: copyJson(entry),
    email,
    linkedinUrl: stringField(variables, 'linkedin_url') ?? stringField(variables, 'linkedinUrl'),
    firstName: stringField(entry, 'first_name'),
    lastName: stringField(entry, 'last_name'),
    companyName: stringField(entry, 'company_name'),
    senderAccount: context.workspace.mailbox,
    providerIds: {},
  });
}

function createLead(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : null;
  if (!fields) return error(400, 'body must be an object');
  const campaignId = idField(fields, 'campaign');
  const campaign = campaignId === null ? null : context.workspace.campaigns.get(campaignId);
  if (!campaign) return error(404, 'Campaign not found');
  const email = stringField(fields, 'email');
  const skip = admission(context.workspace, campaign, email, {
    skipIfInWorkspace: booleanField(fields, 'skip_if_in_workspace') === true,
  });
  if (skip === 'invalid') return error(400, 'body/email must match format "email"');
  if (skip === 'blocklisted') return error(400, 'The lead is in the blocklist');
  if (skip !== 'added') {
    // A skipped lead is answered as it stands: its `campaign` says where it is.
    const existing = context.workspace.leads.findLast(
      (lead) => lead.status !== 'removed' && sameEmail(lead.email, email),
    );
    return json(200, leadObject(context.workspace, existing!));
  }
  // The lead is kept without the request's options, as Instantly stores it.
  const leadFields = Object.fromEntries(
    Object.entries(fields).filter(([key]) => !CREATE_OPTIONS.includes(key)),
  );
  const lead = enroll(context, campaign, leadFields, email!);
  lead.received = copyJson(fields);
  return json(200, leadObject(context.workspace, lead));
}

function addLeadsInBulk(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : null;
  const leads = fields?.leads;
  if (!fields || !Array.isArray(leads) || leads.length === 0)
    return error(400, 'body/leads must be a non-empty array');
  if (leads.length > FACTS.maxLeadsPerRequest) {
    return error(400, `body/leads must NOT have more than ${FACTS.maxLeadsPerRequest} items`);
  }
  const campaignId = idField(fields, 'campaign_id');
  if (campaignId === null) return error(400, 'body must have campaign_id or list_id');
  const campaign = context.workspace.campaigns.get(campaignId);
  if (!campaign) return error(404, 'Campaign not found');
  const skipIfInWorkspace = booleanField(fields, 'skip_if_in_workspace') === true;
  const counts = {
    leads_uploaded: 0,
    in_blocklist: 0,
    skipped_count: 0,
    invalid_email_count: 0,
    duplicate_email_count: 0,
  };
  const createdLeads: JsonObject[] = [];
  const seen = new Set<string>();
  leads.forEach((entry, index) => {
    const email = isRecord(entry) ? stringField(entry, 'email') : null;
    const key = email?.trim().toLowerCase() ?? '';
    if (isValidEmail(email) && seen.has(key)) {
      counts.duplicate_email_count++;
      return;
    }
    seen.add(key);
    const skip = admission(context.workspace, campaign, email, { skipIfInWorkspace });
    if (skip === 'invalid' || !isRecord(entry)) counts.invalid_email_count++;
    else if (skip === 'blocklisted') counts.in_blocklist++;
    else if (skip !== 'added') counts.skipped_count++;
    else {
      const lead = enroll(context, campaign, entry, email!);
      counts.leads_uploaded++;
      createdLeads.push({ id: lead.leadId, index, email: lead.email });
    }
  });
  return json(200, {
    status: 'success',
    total_sent: leads.length,
    ...counts,
    blocklist_used: null,
    incomplete_count: 0,
    duplicated_leads: counts.duplicate_email_count,
    remaining_in_plan: 100_000,
    created_leads: createdLeads,
  });
}

function listLeads(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const campaignId = idField(fields, 'campaign');
  const contacts = Array.isArray(fields.contacts)
    ? fields.contacts.filter((item): item is string => typeof item === 'string')
    : null;
  const ids = Array.isArray(fields.ids)
    ? fields.ids.filter((item): item is string => typeof item === 'string')
    : null;
  const limit = typeof fields.limit === 'number' ? fields.limit : 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100)
    return error(400, 'body/limit must be between 1 and 100');
  if (campaignId !== null && !context.workspace.campaigns.has(campaignId))
    return error(404, 'Campaign not found');
  const startingAfter = stringField(fields, 'starting_after');
  const matching = context.workspace.leads.filter(
    (lead) =>
      lead.status !== 'removed' &&
      (campaignId === null || lead.campaignId === campaignId) &&
      (contacts === null || contacts.some((email) => sameEmail(email, lead.email))) &&
      (ids === null || ids.includes(lead.leadId)),
  );
  const start = startingAfter === null ? 0 : matching.findIndex((lead) => lead.leadId === startingAfter) + 1;
  const page = matching.slice(start, start + limit);
  const more = start + limit < matching.length;
  return json(200, {
    items: page.map((lead) => leadObject(context.workspace, lead)),
    next_starting_after: more ? page.at(-1)!.leadId : null,
  });
}

const leadById = (context: RouteContext) =>
  context.workspace.leads.find((lead) => lead.leadId === context.params.leadId && lead.status !== 'removed');

function replyToEmail(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const replyTo = stringField(fields, 'reply_to_uuid');
  const account = stringField(fields, 'eaccount');
  const subject = stringField(fields, 'subject');
  const body = isRecord(fields.body) ? fields.body : null;
  const bodyText = body ? stringField(body, 'text') : null;
  const bodyHtml = body ? stringField(body, 'html') : null;
  if (!replyTo || !account || subject === null || (bodyText === null && bodyHtml === null)) {
    return error(400, 'body must have reply_to_uuid, eaccount, subject and body.text or body.html');
  }
  // reply_to_uuid: an email Instantly issued for a lead of this workspace (reply_received's `email_id`).
  const lead = context.workspace.leads.find(
    (item) =>
      item.messages.some((message) => message.id === replyTo) ||
      item.replies.some((reply) => reply.id === replyTo),
  );
  if (!lead) return error(404, 'Email not found');
  if (account.toLowerCase() !== lead.senderAccount.toLowerCase()) {
    return error(400, 'eaccount is not the account of the email thread');
  }
  const recorded = context.emulator.recordReply(context.workspace, {
    leadId: lead.leadId,
    campaignId: lead.campaignId,
    thread: { reply_to_uuid: replyTo, eaccount: account },
    subject,
    text: bodyText,
    html: bodyHtml,
  });
  return json(200, {
    id: recorded.id,
    timestamp_created: recorded.at,
    timestamp_email: recorded.at,
    message_id: `<${recorded.id}@${account.split('@')[1]}>`,
    subject,
    to_address_email_list: lead.email,
    body: { text: bodyText, html: bodyHtml },
    organization_id: context.workspace.workspaceId,
    eaccount: account,
    from_address_email: account,
    campaign_id: lead.campaignId,
    lead: lead.email,
    lead_id: lead.leadId,
    ue_type: 3,
    is_unread: 0,
    thread_id: replyTo,
  });
}

function createWebhook(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const url = stringField(fields, 'target_hook_url');
  if (!url || !URL.canParse(url)) return error(400, 'body/target_hook_url must match format "uri"');
  const campaignId = idField(fields, 'campaign');
  if (campaignId !== null && !context.workspace.campaigns.has(campaignId))
    return error(404, 'Campaign not found');
  const eventType = stringField(fields, 'event_type') ?? 'all_events';
  const registration = context.emulator.registerWebhook(context.workspace, {
    url,
    campaignId,
    eventTypes: [eventType],
    secretKey: null,
  });
  return json(
    200,
    webhookObject(
      context.workspace,
      registration.id,
      url,
      campaignId,
      eventType,
      stringField(fields, 'name'),
    ),
  );
}

const webhookObject = (
  workspace: Workspace,
  id: string,
  url: string,
  campaignId: string | null,
  eventType: string,
  name: string | null,
): JsonObject => ({
  id,
  organization: workspace.workspaceId,
  campaign: campaignId,
  name,
  target_hook_url: url,
  event_type: eventType,
  timestamp_created: new Date().toISOString(),
});

const routes: Route[] = [
  {
    method: 'GET',
    path: '/workspaces/current',
    handle: ({ workspace }) => json(200, workspaceObject(workspace)),
  },
  { method: 'GET', path: '/campaigns', handle: listCampaigns },
  { method: 'POST', path: '/campaigns', handle: createCampaign },
  { method: 'POST', path: '/campaigns/:campaignId/activate', handle: setCampaignStatus(ACTIVE) },
  { method: 'POST', path: '/campaigns/:campaignId/pause', handle: setCampaignStatus(PAUSED) },
  {
    method: 'GET',
    path: '/campaigns/:campaignId',
    handle: ({ workspace, params }) => {
      const campaign = workspace.campaigns.get(params.campaignId!);
      return campaign ? json(200, campaignObject(workspace, campaign)) : error(404, 'Campaign not found');
    },
  },
  { method: 'POST', path: '/leads', addsLeads: true, handle: createLead },
  { method: 'POST', path: '/leads/add', addsLeads: true, handle: addLeadsInBulk },
  { method: 'POST', path: '/leads/list', handle: listLeads },
  {
    method: 'GET',
    path: '/leads/:leadId',
    handle: (context) => {
      const lead = leadById(context);
      return lead ? json(200, leadObject(context.workspace, lead)) : error(404, 'Lead not found');
    },
  },
  {
    method: 'DELETE',
    path: '/leads/:leadId',
    handle: (context) => {
      const lead = leadById(context);
      if (!lead) return error(404, 'Lead not found');
      const answer = leadObject(context.workspace, lead);
      context.emulator.setStatus(lead, 'removed');
      return json(200, answer);
    },
  },
  { method: 'POST', path: '/emails/reply', handle: replyToEmail },
  { method: 'POST', path: '/webhooks', handle: createWebhook },
  {
    method: 'GET',
    path: '/webhooks',
    handle: ({ workspace }) =>
      json(200, {
        items: workspace.webhooks.map((hook) =>
          webhookObject(
            workspace,
            hook.id,
            hook.url,
            hook.campaignId,
            hook.eventTypes?.[0] ?? 'all_events',
            null,
          ),
        ),
        next_starting_after: null,
      }),
  },
];

/** The lead-status events played for a classification. */
const CLASSIFICATION_EVENTS = {
  positive: 'lead_interested',
  negative: 'lead_not_interested',
  neutral: 'lead_neutral',
} as const;

function nativeEvents(context: EventContext): NativeEvent[] {
  const { lead, campaign, at, message, reply, workspace } = context;
  const fields = received(lead);
  const variables = isRecord(fields.custom_variables) ? (fields.custom_variables as JsonObject) : {};
  // The lead's own fields ride along as extra keys, as the documented schema allows.
  const base: JsonObject = {
    ...variables,
    timestamp: at,
    workspace: workspace.workspaceId,
    campaign_id: campaign.id,
    campaign_name: campaign.name,
    lead_email: lead.email,
    firstName: lead.firstName,
    lastName: lead.lastName,
    companyName: lead.companyName,
    email_account: lead.senderAccount,
    is_first: true,
  };
  const event = (name: string, extra: JsonObject = {}): NativeEvent => ({
    name,
    payload: { ...base, event_type: name, ...extra },
  });
  const ofEmail: JsonObject = message ? { step: message.step, variant: 1, email_id: message.id } : {};
  switch (context.type) {
    case 'sent':
      return [
        event('email_sent', {
          ...ofEmail,
          is_first: message!.step === 1,
          email_subject: message!.subject,
          email_text: message!.text,
          email_html: `<div>${message!.text}</div>`,
        }),
      ];
    case 'opened':
      return [event('email_opened', ofEmail)];
    case 'clicked':
      return [event('email_link_clicked', ofEmail)];
    case 'replied': {
      const replied = event('reply_received', {
        ...ofEmail,
        // The received email's id: what POST /emails/reply takes as reply_to_uuid.
        email_id: reply!.id,
        unibox_url: `https://app.instantly.ai/app/unibox?thread_search=${encodeURIComponent(lead.email ?? '')}`,
        reply_subject: reply!.subject,
        reply_text: reply!.text,
        reply_html: `<div>${reply!.text}</div>`,
        reply_text_snippet: reply!.text.slice(0, 100),
      });
      return context.classification
        ? [replied, event(CLASSIFICATION_EVENTS[context.classification])]
        : [replied];
    }
    case 'bounced':
      return [event('email_bounced', ofEmail)];
    case 'unsubscribed':
      return [event('lead_unsubscribed')];
    case 'completed':
      return [event('campaign_completed')];
  }
}

export const instantlySpec: ProviderEmulatorSpec = {
  provider: 'instantly',
  basePath: new URL(FACTS.defaultBaseUrl).pathname,
  apiKeyOf: (request) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
    return match ? match[1]!.trim() : null;
  },
  error,
  newCampaignId: uuid,
  newMessageId: uuid,
  newReplyId: uuid,
  supports: ['sent', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed', 'completed'],
  nativeEvents,
  routes,
};
