import { PROVIDER_APIS } from '#definitions/provider-apis.ts';
import {
  copyJson,
  empty,
  idField,
  isRecord,
  type JsonObject,
  type JsonValue,
  json,
  stringField,
} from './http.ts';
import { numericIds, uuid } from './ids.ts';
import type { EventContext, NativeEvent, ProviderEmulatorSpec, Route, RouteContext } from './spec.ts';
import { type Campaign, type EmulatedLead, leadsInCampaign, type Workspace } from './state.ts';

/**
 * HeyReach's public API (https://api.heyreach.io/api/public), the API key in
 * the `X-API-KEY` header. Its reference is a Postman collection
 * (https://documenter.getpostman.com/view/23808049/2sA2xb5F75); endpoints:
 *
 * - GET  /auth/CheckApiKey
 * - GET  /campaign/GetById?campaignId=
 * - POST /campaign/AddLeadsToCampaignV2 {campaignId, accountLeadPairs: [{linkedInAccountId, lead}]}
 *        → {addedLeadsCount, updatedLeadsCount, failedLeadsCount} (no lead ids)
 * - POST /campaign/GetLeadsFromCampaign {campaignId, offset, limit}
 * - POST /campaign/GetCampaignsForLead {profileUrl | email}
 * - POST /lead/GetLead {profileUrl}
 * - POST /campaign/StopLeadInCampaign {campaignId, leadUrl}
 * - POST /inbox/SendMessage {message, subject, conversationId, linkedInAccountId}
 * - POST /webhooks/CreateWebhook {webhookName, webhookUrl, eventType, campaignIds}
 *
 * HeyReach documents no payloads for its webhooks; they are built as the
 * fixtures in test/fixtures/providers/heyreach/ (lower-case `event_type`,
 * `campaign`, `sender`, `lead`, `conversation_id`, `recent_messages`).
 * HeyReach has no open, click, bounce, unsubscribe or classification events,
 * so those are not played; a sent step is played as MESSAGE_SENT (a real
 * campaign usually starts with a connection request).
 */

const FACTS = PROVIDER_APIS.heyreach;
const campaignIds = numericIds();
const leadIds = numericIds();

const error = (status: number, message: string) => json(status, { errorMessage: message });
const asNumber = (id: string): number | string => (/^\d+$/.test(id) ? Number(id) : id);

/** LinkedIn profile URLs compared without scheme, `www.`, query or trailing slash, in any case. */
const profileKey = (url: string): string =>
  url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
const sameProfile = (a: string | null, b: string | null): boolean =>
  a !== null && b !== null && profileKey(a) === profileKey(b);

const received = (lead: EmulatedLead): Record<string, unknown> =>
  isRecord(lead.received) ? lead.received : {};
const receivedValue = (lead: EmulatedLead, key: string): JsonValue => {
  const value = received(lead)[key];
  return value === undefined ? null : (value as JsonValue);
};

function campaignObject(campaign: Campaign): JsonObject {
  return {
    id: asNumber(campaign.id),
    name: campaign.name,
    status: 'IN_PROGRESS',
    creationTime: campaign.createdAt,
    campaignAccountIds: [asNumber(campaign.defaultSenderId)],
  };
}

const LEAD_STATUS: Record<EmulatedLead['status'], string> = {
  active: 'InSequence',
  paused: 'Paused',
  removed: 'Stopped',
  unsubscribed: 'Stopped',
  bounced: 'Failed',
  completed: 'Finished',
};

function profileObject(lead: EmulatedLead): JsonObject {
  return {
    id: asNumber(lead.leadId),
    linkedInUserProfileId: lead.leadId,
    profileUrl: lead.linkedinUrl,
    firstName: receivedValue(lead, 'firstName'),
    lastName: receivedValue(lead, 'lastName'),
    companyName: receivedValue(lead, 'companyName'),
    position: receivedValue(lead, 'position'),
    emailAddress: receivedValue(lead, 'emailAddress'),
    customUserFields: Array.isArray(received(lead).customUserFields)
      ? (received(lead).customUserFields as JsonValue[])
      : [],
  };
}

const campaignOfBody = (workspace: Workspace, body: unknown): Campaign | null => {
  const id = isRecord(body) ? idField(body, 'campaignId') : null;
  return id === null ? null : (workspace.campaigns.get(id) ?? null);
};

function addLeads(context: RouteContext) {
  const { workspace, body, emulator } = context;
  const campaign = campaignOfBody(workspace, body);
  if (!campaign) return error(404, 'Campaign not found');
  const pairs = isRecord(body) ? body.accountLeadPairs : undefined;
  if (!Array.isArray(pairs) || pairs.length === 0)
    return error(400, 'accountLeadPairs must be a non-empty array');
  if (pairs.length > FACTS.maxLeadsPerRequest) {
    return error(400, `accountLeadPairs must contain at most ${FACTS.maxLeadsPerRequest} leads`);
  }
  const counts = { addedLeadsCount: 0, updatedLeadsCount: 0, failedLeadsCount: 0 };
  for (const pair of pairs) {
    const lead = isRecord(pair) && isRecord(pair.lead) ? pair.lead : null;
    const profileUrl = lead ? stringField(lead, 'profileUrl') : null;
    if (!lead || !profileUrl || !/linkedin\.com\/in\//i.test(profileUrl)) {
      counts.failedLeadsCount++;
      continue;
    }
    const email = stringField(lead, 'emailAddress');
    if (
      email &&
      (workspace.unsubscribed.has(email.toLowerCase()) || workspace.blocked.has(email.toLowerCase()))
    ) {
      counts.failedLeadsCount++;
      continue;
    }
    // A lead the campaign holds is updated by HeyReach, never added twice; the emulator keeps its first fields.
    if (leadsInCampaign(workspace, campaign.id).some((item) => sameProfile(item.linkedinUrl, profileUrl))) {
      counts.updatedLeadsCount++;
      continue;
    }
    const accountId = isRecord(pair) ? idField(pair, 'linkedInAccountId') : null;
    emulator.enroll(workspace, {
      leadId: leadIds(),
      campaignId: campaign.id,
      received: copyJson(lead),
      email,
      linkedinUrl: profileUrl,
      firstName: stringField(lead, 'firstName'),
      lastName: stringField(lead, 'lastName'),
      companyName: stringField(lead, 'companyName'),
      // No account named: the campaign's own LinkedIn account sends.
      senderAccount: accountId ?? campaign.defaultSenderId,
      providerIds: { conversationId: `2-${Buffer.from(uuid()).toString('base64')}` },
    });
    counts.addedLeadsCount++;
  }
  return json(200, counts);
}

function leadsFromCampaign(context: RouteContext) {
  const campaign = campaignOfBody(context.workspace, context.body);
  if (!campaign) return error(404, 'Campaign not found');
  const fields = isRecord(context.body) ? context.body : {};
  const offset = typeof fields.offset === 'number' ? fields.offset : 0;
  const limit = typeof fields.limit === 'number' ? fields.limit : 100;
  if (offset < 0 || limit < 1 || limit > 100)
    return error(400, 'offset must be ≥ 0 and limit between 1 and 100');
  const leads = leadsInCampaign(context.workspace, campaign.id);
  return json(200, {
    totalCount: leads.length,
    items: leads.slice(offset, offset + limit).map((lead) => ({
      ...profileObject(lead),
      leadCampaignStatus: LEAD_STATUS[lead.status],
      linkedInSenderId: asNumber(lead.senderAccount),
      creationTime: lead.addedAt,
    })),
  });
}

function leadsOfProfile(workspace: Workspace, fields: Record<string, unknown>): EmulatedLead[] {
  const profileUrl = stringField(fields, 'profileUrl');
  const email = stringField(fields, 'email');
  return workspace.leads.filter(
    (lead) =>
      lead.status !== 'removed' &&
      ((profileUrl !== null && sameProfile(lead.linkedinUrl, profileUrl)) ||
        (email !== null && lead.email !== null && lead.email.toLowerCase() === email.toLowerCase())),
  );
}

function campaignsForLead(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  if (!stringField(fields, 'profileUrl') && !stringField(fields, 'email'))
    return error(400, 'profileUrl or email is required');
  const leads = leadsOfProfile(context.workspace, fields);
  return json(200, {
    totalCount: leads.length,
    items: leads.map((lead) => ({
      campaignId: asNumber(lead.campaignId),
      campaignName: context.workspace.campaigns.get(lead.campaignId)?.name ?? null,
      campaignStatus: 'IN_PROGRESS',
      leadStatus: LEAD_STATUS[lead.status],
    })),
  });
}

function getLead(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  if (!stringField(fields, 'profileUrl')) return error(400, 'profileUrl is required');
  const lead = leadsOfProfile(context.workspace, { profileUrl: fields.profileUrl }).at(-1);
  return lead ? json(200, profileObject(lead)) : error(404, 'Lead not found');
}

function stopLead(context: RouteContext) {
  const campaign = campaignOfBody(context.workspace, context.body);
  if (!campaign) return error(404, 'Campaign not found');
  const fields = isRecord(context.body) ? context.body : {};
  const leadUrl = stringField(fields, 'leadUrl');
  if (!leadUrl) return error(400, 'leadUrl is required');
  const lead = leadsInCampaign(context.workspace, campaign.id).find((item) =>
    sameProfile(item.linkedinUrl, leadUrl),
  );
  if (!lead) return error(404, 'Lead not found in campaign');
  context.emulator.setStatus(lead, 'paused');
  return empty(200);
}

function sendMessage(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const conversationId = stringField(fields, 'conversationId');
  const accountId = idField(fields, 'linkedInAccountId');
  const message = stringField(fields, 'message');
  if (!conversationId || !accountId || !message) {
    return error(400, 'message, conversationId and linkedInAccountId are required');
  }
  // The conversation is the one a reply webhook named (`conversation_id`), of the account that wrote (`sender.id`).
  const lead = context.workspace.leads.find((item) => item.providerIds.conversationId === conversationId);
  if (!lead) return error(404, 'Conversation not found');
  if (lead.senderAccount !== accountId)
    return error(400, 'The conversation does not belong to this LinkedIn account');
  context.emulator.recordReply(context.workspace, {
    leadId: lead.leadId,
    campaignId: lead.campaignId,
    thread: { conversationId, linkedInAccountId: accountId },
    subject: stringField(fields, 'subject'),
    text: message,
    html: null,
  });
  return empty(200);
}

function createWebhook(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const url = stringField(fields, 'webhookUrl');
  const eventType = stringField(fields, 'eventType');
  if (!url || !URL.canParse(url) || !eventType) return error(400, 'webhookUrl and eventType are required');
  const campaignIdsOfHook = Array.isArray(fields.campaignIds) ? fields.campaignIds.map(String) : [];
  const unknown = campaignIdsOfHook.find((id) => !context.workspace.campaigns.has(id));
  if (unknown !== undefined) return error(404, `Campaign ${unknown} not found`);
  // One registration per campaign (none: every campaign).
  for (const campaignId of campaignIdsOfHook.length > 0 ? campaignIdsOfHook : [null]) {
    context.emulator.registerWebhook(context.workspace, {
      url,
      campaignId,
      eventTypes: [eventType],
      secretKey: null,
    });
  }
  return empty(200);
}

const routes: Route[] = [
  { method: 'GET', path: '/auth/CheckApiKey', handle: () => empty(200) },
  {
    method: 'GET',
    path: '/campaign/GetById',
    handle: ({ workspace, query }) => {
      const campaign = workspace.campaigns.get(query.get('campaignId') ?? '');
      return campaign ? json(200, campaignObject(campaign)) : error(404, 'Campaign not found');
    },
  },
  { method: 'POST', path: '/campaign/AddLeadsToCampaignV2', addsLeads: true, handle: addLeads },
  { method: 'POST', path: '/campaign/GetLeadsFromCampaign', handle: leadsFromCampaign },
  { method: 'POST', path: '/campaign/GetCampaignsForLead', handle: campaignsForLead },
  { method: 'POST', path: '/lead/GetLead', handle: getLead },
  { method: 'POST', path: '/campaign/StopLeadInCampaign', handle: stopLead },
  { method: 'POST', path: '/inbox/SendMessage', handle: sendMessage },
  { method: 'POST', path: '/webhooks/CreateWebhook', handle: createWebhook },
];

function nativeEvents(context: EventContext): NativeEvent[] {
  const { lead, campaign, at, reply } = context;
  const fullName = [lead.firstName, lead.lastName].filter(Boolean).join(' ') || null;
  const recentMessages: JsonValue[] = [
    ...lead.messages.map((message) => ({
      creation_time: message.at,
      message: message.text,
      is_reply: false,
      at: message.at,
    })),
    ...lead.replies.map((item) => ({
      creation_time: item.at,
      message: item.text,
      is_reply: true,
      at: item.at,
    })),
  ]
    .sort((a, b) => a.at.localeCompare(b.at))
    .map(({ at: _sortKey, ...message }) => message);
  const payload = (eventType: string, extra: JsonObject): NativeEvent => ({
    name: eventType,
    payload: {
      campaign: { name: campaign.name, id: asNumber(campaign.id), status: 'IN_PROGRESS' },
      sender: {
        id: asNumber(lead.senderAccount),
        first_name: 'Emulated',
        last_name: 'Sender',
        full_name: 'Emulated Sender',
        email_address: context.workspace.mailbox,
        profile_url: `https://www.linkedin.com/in/emulated-sender-${lead.senderAccount}`,
      },
      lead: {
        id: lead.leadId,
        profile_url: lead.linkedinUrl,
        first_name: lead.firstName,
        last_name: lead.lastName,
        full_name: fullName,
        company_name: lead.companyName,
        position: receivedValue(lead, 'position'),
        email_address: lead.email,
        enriched_email: null,
        tags: [],
        lists: [],
      },
      timestamp: at,
      // HeyReach documents the types in upper case and sends them in lower case.
      event_type: eventType.toLowerCase(),
      correlation_id: uuid(),
      ...extra,
    },
  });
  const conversation: JsonObject = {
    is_inmail: false,
    conversation_id: lead.providerIds.conversationId ?? null,
    recent_messages: recentMessages,
  };
  switch (context.type) {
    case 'sent':
      return [payload('MESSAGE_SENT', conversation)];
    case 'replied':
      return reply ? [payload('MESSAGE_REPLY_RECEIVED', conversation)] : [];
    case 'completed':
      return [payload('CAMPAIGN_COMPLETED', {})];
    default:
      return [];
  }
}

export const heyreachSpec: ProviderEmulatorSpec = {
  provider: 'heyreach',
  basePath: new URL(FACTS.defaultBaseUrl).pathname,
  apiKeyOf: (request) => {
    const header = request.headers['x-api-key'];
    return typeof header === 'string' && header.trim() !== '' ? header.trim() : null;
  },
  error,
  newCampaignId: campaignIds,
  newMessageId: uuid,
  newReplyId: uuid,
  supports: ['sent', 'replied', 'completed'],
  nativeEvents,
  routes,
};
