import { PROVIDER_APIS } from '#definitions/provider-apis.ts';
import { copyJson, isRecord, isValidEmail, type JsonObject, json, stringField, text } from './http.ts';
import { lemlistId } from './ids.ts';
import type { EventContext, NativeEvent, ProviderEmulatorSpec, Route, RouteContext } from './spec.ts';
import { type EmulatedLead, leadsInCampaign, sameEmail, type Workspace } from './state.ts';

/**
 * lemlist's API (https://api.lemlist.com/api), HTTP Basic auth with an empty
 * user and the API key as password (https://developer.lemlist.com/api-reference/getting-started/authentication).
 * Endpoints (classic reference: https://github.com/l3mpire/lemlist-developer,
 * source/includes/_campaigns.md, _leads.md, _hooks.md; current one:
 * https://developer.lemlist.com/api-reference):
 *
 * - GET    /campaigns/{campaignId}
 * - POST   /campaigns/{campaignId}/leads/{email}?deduplicate=true   one lead per request; body = the lead's fields,
 *          custom variables as extra keys; answers the lead with its `_id` (lea_…)   endpoints/leads/create-lead-in-campaign
 * - GET    /campaigns/{campaignId}/leads                             endpoints/leads/get-campaign-leads
 * - GET    /leads/{email}                                           endpoints/leads/get-lead-by-email
 * - POST   /leads/pause/{leadIdOrEmail}?campaignId=                 endpoints/leads/pause-lead
 * - POST   /leads/start/{leadIdOrEmail}?campaignId=                 endpoints/leads/resume-paused-lead
 * - DELETE /campaigns/{campaignId}/leads/{email}[?action=remove]    unsubscribe (or delete) a lead of a campaign
 * - POST   /hooks {targetUrl, type?, campaignId?}, GET /hooks, DELETE /hooks/{_id}
 *
 * lemlist answers errors as plain text. Its rate limit answers 429 with
 * Retry-After and X-RateLimit-Limit/-Remaining/-Reset (the reference's "Rate
 * Limit" section). No reply endpoint is emulated: the service does not reply
 * in thread through lemlist (`repliesInThread: false`). A hook posts the
 * activity object (`_id` act_…, `type`, `leadEmail`, `campaignId`, …), as the
 * fixtures in test/fixtures/providers/lemlist/ show it.
 */

const FACTS = PROVIDER_APIS.lemlist;
const error = (status: number, message: string) => text(status, message);

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

function leadByEmail(context: RouteContext) {
  const leads = context.workspace.leads.filter(
    (lead) => lead.status !== 'removed' && sameEmail(lead.email, context.params.email!),
  );
  if (leads.length === 0) return error(404, 'Lead not found');
  const objects = leads.map((lead) => leadObject(context.workspace, lead));
  // The classic reference answers one object; a lead in several campaigns is answered as their list.
  return json(200, objects.length === 1 ? objects[0]! : objects);
}

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
    path: '/campaigns/:campaignId',
    handle: ({ workspace, params }) => {
      const campaign = workspace.campaigns.get(params.campaignId!);
      if (!campaign) return error(404, 'Campaign not found');
      return json(200, {
        _id: campaign.id,
        name: campaign.name,
        status: 'running',
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
    teamId: `tea_${workspace.workspaceId.replace(/-/g, '').slice(0, 17)}`,
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
  apiKeyOf: (request) => {
    const header = request.headers.authorization;
    const match = header ? /^Basic\s+(.+)$/i.exec(header) : null;
    if (!match) return null;
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
