import { HEYREACH_FACTS as FACTS } from '#providers/heyreach/facts.ts';
import {
  copyJson,
  empty,
  idField,
  isRecord,
  type JsonObject,
  type JsonValue,
  json,
  stringField,
} from '../http.ts';
import { numericIds, uuid } from '../ids.ts';
import type { EventContext, NativeEvent, ProviderEmulatorSpec, Route, RouteContext } from '../spec.ts';
import { type Campaign, type EmulatedLead, leadsInCampaign, type Workspace } from '../state.ts';

/**
 * HeyReach's public API (https://api.heyreach.io/api/public), the API key in
 * the `X-API-KEY` header. Its reference is a Postman collection
 * (https://documenter.getpostman.com/view/23808049/2sA2xb5F75); endpoints,
 * each shaped as that collection's page for it:
 *
 * - GET  /auth/CheckApiKey → empty 200 (a wrong key: 401, as every endpoint)
 * - POST /campaign/GetAll {offset, limit ≤ 100, keyword?, statuses?} → {totalCount, items: [campaign]}
 * - GET  /campaign/GetById?campaignId= → campaign {id, name, status, creationTime, campaignAccountIds}
 * - POST /campaign/Pause?campaignId= (IN_PROGRESS → PAUSED), /campaign/Resume?campaignId=
 *        (PAUSED, FINISHED or FAILED → IN_PROGRESS); another state answers 400
 * - POST /campaign/AddLeadsToCampaignV2 {campaignId, accountLeadPairs: [{linkedInAccountId, lead}]}
 *        → {addedLeadsCount, updatedLeadsCount, failedLeadsCount} (no lead ids); 400 when the
 *        campaign is not IN_PROGRESS or has no sender account, or a pair names an account that is
 *        not one of the campaign's senders
 * - POST /campaign/GetLeadsFromCampaign {campaignId, offset, limit}
 * - POST /campaign/GetCampaignsForLead {profileUrl | email}
 * - POST /lead/GetLead {profileUrl}
 * - POST /campaign/StopLeadInCampaign {campaignId, leadUrl}
 * - POST /inbox/SendMessage {message, subject, conversationId, linkedInAccountId}
 * - POST /webhooks/CreateWebhook {webhookName, webhookUrl, eventType, campaignIds}
 *
 * A campaign's state and senders are set through the control API
 * (`POST /_emulator/campaigns/{id}/state`, index.ts); a new one is
 * IN_PROGRESS with one sender. A pair whose `linkedInAccountId` is null is
 * taken, its lead sent from the campaign's first sender: whether the real
 * API takes null could not be checked (docs/providers.md#heyreach).
 *
 * HeyReach documents no payloads for its webhooks; they are built as the
 * fixtures in test/fixtures/providers/heyreach/ (lower-case `event_type`,
 * `campaign`, `sender`, `lead`, `conversation_id`, `recent_messages`).
 * HeyReach has no open, click, bounce, unsubscribe or classification events,
 * so those are not played; a sent step is played as MESSAGE_SENT (a real
 * campaign usually starts with a connection request).
 */

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

/** A campaign's state as HeyReach names it: a new one runs. */
const statusOf = (campaign: Campaign): string => campaign.status ?? 'IN_PROGRESS';
const sendersOf = (campaign: Campaign): string[] => campaign.senderAccountIds ?? [campaign.defaultSenderId];

function campaignObject(campaign: Campaign): JsonObject {
  return {
    id: asNumber(campaign.id),
    name: campaign.name,
    status: statusOf(campaign),
    creationTime: campaign.createdAt,
    campaignAccountIds: sendersOf(campaign).map(asNumber),
  };
}

const campaignOfQuery = (context: RouteContext): Campaign | null =>
  context.workspace.campaigns.get(context.query.get('campaignId') ?? '') ?? null;

function listCampaigns(context: RouteContext) {
  const fields = isRecord(context.body) ? context.body : {};
  const offset = fields.offset ?? 0;
  const limit = fields.limit ?? 100;
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(limit))
    return error(400, 'offset and limit must be integers');
  if ((offset as number) < 0 || (limit as number) < 1 || (limit as number) > 100)
    return error(400, 'offset must be ≥ 0 and limit between 1 and 100');
  const keyword = stringField(fields, 'keyword')?.toLowerCase() ?? null;
  const statuses = Array.isArray(fields.statuses) ? fields.statuses.map(String) : null;
  const campaigns = [...context.workspace.campaigns.values()].filter(
    (campaign) =>
      (keyword === null || campaign.name.toLowerCase().includes(keyword)) &&
      (statuses === null || statuses.length === 0 || statuses.includes(statusOf(campaign))),
  );
  return json(200, {
    totalCount: campaigns.length,
    items: campaigns.slice(offset as number, (offset as number) + (limit as number)).map(campaignObject),
  });
}

/** Pause and Resume: a move between two states, refused (400) from any other. */
function moveCampaign(from: readonly string[], to: string, refusal: string) {
  return (context: RouteContext) => {
    const campaign = campaignOfQuery(context);
    if (!campaign) return error(404, 'Campaign not found');
    if (!from.includes(statusOf(campaign))) return error(400, refusal);
    campaign.status = to;
    return empty(200);
  };
}

/** Why HeyReach refuses leads for the campaign now, or null. */
function notTakingLeads(campaign: Campaign): string | null {
  if (statusOf(campaign) !== 'IN_PROGRESS') return `Campaign is not active (status ${statusOf(campaign)})`;
  if (sendersOf(campaign).length === 0) return 'Campaign has no LinkedIn sender accounts';
  return null;
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
  const notTaking = notTakingLeads(campaign);
  if (notTaking) return error(400, notTaking);
  const senders = sendersOf(campaign);
  const stranger = pairs
    .map((pair) => (isRecord(pair) ? idField(pair, 'linkedInAccountId') : null))
    .find((accountId) => accountId !== null && !senders.includes(accountId));
  if (stranger !== undefined)
    return error(400, `LinkedIn account ${stranger} is not a sender of campaign ${campaign.id}`);
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
      // No account named: the campaign's first LinkedIn account sends.
      senderAccount: accountId ?? senders[0]!,
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
      campaignStatus: (() => {
        const campaign = context.workspace.campaigns.get(lead.campaignId);
        return campaign ? statusOf(campaign) : null;
      })(),
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
  { method: 'POST', path: '/campaign/GetAll', handle: listCampaigns },
  {
    method: 'GET',
    path: '/campaign/GetById',
    handle: (context) => {
      const campaign = campaignOfQuery(context);
      return campaign ? json(200, campaignObject(campaign)) : error(404, 'Campaign not found');
    },
  },
  {
    method: 'POST',
    path: '/campaign/Pause',
    handle: moveCampaign(
      ['IN_PROGRESS'],
      'PAUSED',
      'The campaign you are trying to pause is not in progress.',
    ),
  },
  {
    method: 'POST',
    path: '/campaign/Resume',
    handle: moveCampaign(
      ['PAUSED', 'FINISHED', 'FAILED'],
      'IN_PROGRESS',
      'The campaign you are trying to resume is not paused, finished or failed.',
    ),
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
      campaign: { name: campaign.name, id: asNumber(campaign.id), status: statusOf(campaign) },
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
