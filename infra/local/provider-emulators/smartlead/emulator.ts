import { SMARTLEAD_FACTS as FACTS } from '#providers/smartlead/facts.ts';
import {
  copyJson,
  idField,
  integerParam,
  isRecord,
  isValidEmail,
  type JsonObject,
  type JsonValue,
  json,
  stringField,
} from '../http.ts';
import { numericIds, uuid } from '../ids.ts';
import type { EventContext, NativeEvent, ProviderEmulatorSpec, Route, RouteContext } from '../spec.ts';
import { type Campaign, type EmulatedLead, leadsInCampaign, sameEmail, type Workspace } from '../state.ts';

/**
 * Smartlead's API v1 (https://server.smartlead.ai/api/v1), the API key in the
 * `api_key` query parameter of every request (help center "Full API
 * Documentation": https://helpcenter.smartlead.ai/en/articles/125-full-api-documentation;
 * API reference: https://api.smartlead.ai/api-reference). Endpoints:
 *
 * - GET  /campaigns/ (all of them, newest first, unpaged) https://api.smartlead.ai/api-reference/campaigns/get-all
 * - GET  /campaigns/{id}                                  https://api.smartlead.ai/api-reference/campaigns/get-by-id
 * - POST /campaigns/{id}/leads  {lead_list ≤ 400, settings}  https://api.smartlead.ai/api-reference/leads/add-to-campaign
 * - GET  /campaigns/{id}/leads?offset&limit (≤100)        https://api.smartlead.ai/api-reference/leads/get-by-campaign
 * - GET  /leads/?email=                                   https://api.smartlead.ai/api-reference/leads/get-by-email
 * - POST /campaigns/{id}/leads/{lead_id}/pause            https://api.smartlead.ai/api-reference/leads/pause
 * - POST /campaigns/{id}/leads/{lead_id}/resume           https://api.smartlead.ai/api-reference/leads/resume
 * - DELETE /campaigns/{id}/leads/{lead_id}                https://api.smartlead.ai/api-reference/leads/delete
 * - POST /campaigns/{id}/reply-email-thread               https://api.smartlead.ai/api-reference/campaigns/reply-email-thread
 * - POST /campaigns/{id}/webhooks, GET /campaigns/{id}/webhooks  https://api.smartlead.ai/api-reference/webhooks
 *
 * A missing or wrong key is 401 `{success: false, error: {code: 'UNAUTHORIZED', message}}`
 * (https://api.smartlead.ai/authentication, "Authentication Errors"); other errors are `{error}`.
 *
 * Webhook payloads are shaped as the help center's Webhook Guide pages
 * (https://help.smartlead.ai/Webhook-Guide-Updated-4d0ae6b2fa6a4db1b4c1ead824a86866)
 * and the fixtures in test/fixtures/providers/smartlead/ show them.
 * Smartlead has no per-lead completion webhook, so `completed` is not played.
 */

const campaignIds = numericIds();
const leadIds = numericIds();
const campaignLeadMapIds = numericIds();

/** Smartlead's numeric ids go out as numbers (its payloads' `campaign_id: 123456`). */
const asNumber = (id: string): number | string => (/^\d+$/.test(id) ? Number(id) : id);

const error = (status: number, message: string) =>
  status === 401
    ? json(401, { success: false, error: { code: 'UNAUTHORIZED', message } })
    : json(status, { error: message });

const received = (lead: EmulatedLead): Record<string, unknown> =>
  isRecord(lead.received) ? lead.received : {};
const receivedValue = (lead: EmulatedLead, key: string): JsonValue => {
  const value = received(lead)[key];
  return value === undefined ? null : (value as JsonValue);
};

/** The lead object of Smartlead's lead endpoints, from the fields the lead was added with. */
function leadObject(workspace: Workspace, lead: EmulatedLead): JsonObject {
  return {
    id: asNumber(lead.leadId),
    first_name: receivedValue(lead, 'first_name'),
    last_name: receivedValue(lead, 'last_name'),
    email: lead.email,
    phone_number: receivedValue(lead, 'phone_number'),
    company_name: receivedValue(lead, 'company_name'),
    website: receivedValue(lead, 'website'),
    location: receivedValue(lead, 'location'),
    linkedin_profile: receivedValue(lead, 'linkedin_profile'),
    company_url: receivedValue(lead, 'company_url'),
    custom_fields: isRecord(received(lead).custom_fields) ? (received(lead).custom_fields as JsonObject) : {},
    is_unsubscribed: lead.email !== null && workspace.unsubscribed.has(lead.email.toLowerCase()),
    unsubscribed_client_id_map: null,
  };
}

function leadStatus(lead: EmulatedLead): string {
  if (lead.status === 'paused') return 'PAUSED';
  if (lead.status === 'completed') return 'COMPLETED';
  if (lead.status === 'bounced') return 'BLOCKED';
  if (lead.status === 'unsubscribed') return 'STOPPED';
  return lead.messages.length === 0 ? 'STARTED' : 'INPROGRESS';
}

function campaignOf({ workspace, params }: RouteContext) {
  return workspace.campaigns.get(params.campaignId!) ?? null;
}

function addLeads(context: RouteContext) {
  const { workspace, body, emulator } = context;
  const campaign = campaignOf(context);
  if (!campaign) return error(404, 'Campaign not found');
  const leadList = isRecord(body) ? body.lead_list : undefined;
  if (!Array.isArray(leadList) || leadList.length === 0)
    return error(400, '"lead_list" must be a non-empty array');
  if (leadList.length > FACTS.maxLeadsPerRequest) {
    return error(400, `"lead_list" must contain less than or equal to ${FACTS.maxLeadsPerRequest} items`);
  }
  const settings = isRecord(body) && isRecord(body.settings) ? body.settings : {};
  const counts = {
    upload_count: 0,
    block_count: 0,
    duplicate_count: 0,
    invalid_email_count: 0,
    already_added_to_campaign: 0,
  };
  const invalidEmails: string[] = [];
  const unsubscribedLeads: string[] = [];
  const seen = new Set<string>();
  for (const entry of leadList) {
    const email = isRecord(entry) ? stringField(entry, 'email') : null;
    if (!isRecord(entry) || !isValidEmail(email)) {
      counts.invalid_email_count++;
      if (email) invalidEmails.push(email);
      continue;
    }
    const key = email.trim().toLowerCase();
    if (seen.has(key)) {
      counts.duplicate_count++;
      continue;
    }
    seen.add(key);
    const enrolled = workspace.leads.filter(
      (lead) => lead.status !== 'removed' && sameEmail(lead.email, key),
    );
    if (enrolled.some((lead) => lead.campaignId === campaign.id)) {
      counts.already_added_to_campaign++;
      continue;
    }
    if (workspace.blocked.has(key) && settings.ignore_global_block_list !== true) {
      counts.block_count++;
      continue;
    }
    if (workspace.unsubscribed.has(key) && settings.ignore_unsubscribe_list !== true) {
      unsubscribedLeads.push(email);
      continue;
    }
    // The setting's default is false: a lead of another campaign is not added (api.smartlead.ai/guides/lead-management).
    if (enrolled.length > 0 && settings.ignore_duplicate_leads_in_other_campaign !== true) {
      counts.duplicate_count++;
      continue;
    }
    let leadId = workspace.leadIdsByEmail.get(key);
    if (!leadId) {
      leadId = leadIds();
      workspace.leadIdsByEmail.set(key, leadId);
    }
    emulator.enroll(workspace, {
      leadId,
      campaignId: campaign.id,
      received: copyJson(entry),
      email,
      linkedinUrl: stringField(entry, 'linkedin_profile'),
      firstName: stringField(entry, 'first_name'),
      lastName: stringField(entry, 'last_name'),
      companyName: stringField(entry, 'company_name'),
      senderAccount: workspace.mailbox,
      providerIds: { campaignLeadMapId: campaignLeadMapIds() },
    });
    counts.upload_count++;
  }
  return json(200, {
    ok: true,
    ...counts,
    total_leads: leadList.length,
    invalid_emails: invalidEmails,
    unsubscribed_leads: unsubscribedLeads,
    is_lead_limit_exhausted: false,
    lead_import_stopped_count: 0,
    bounce_count: 0,
  });
}

function listCampaignLeads(context: RouteContext) {
  const campaign = campaignOf(context);
  if (!campaign) return error(404, 'Campaign not found');
  const offset = integerParam(context.query, 'offset', 0);
  const limit = integerParam(context.query, 'limit', 100);
  if (offset < 0 || limit < 1 || limit > 100)
    return error(400, 'offset must be ≥ 0 and limit between 1 and 100');
  const leads = leadsInCampaign(context.workspace, campaign.id);
  return json(200, {
    total_leads: String(leads.length),
    offset,
    limit,
    data: leads.slice(offset, offset + limit).map((lead) => ({
      campaign_lead_map_id: asNumber(lead.providerIds.campaignLeadMapId!),
      lead_category_id: null,
      status: leadStatus(lead),
      created_at: lead.addedAt,
      lead: leadObject(context.workspace, lead),
    })),
  });
}

function leadByEmail({ workspace, query }: RouteContext) {
  const email = query.get('email');
  if (!email) return error(400, '"email" is required');
  const enrollments = workspace.leads.filter(
    (lead) => lead.status !== 'removed' && sameEmail(lead.email, email),
  );
  const latest = enrollments.at(-1);
  // Documented: an empty object when no lead has that email.
  if (!latest) return json(200, {});
  return json(200, {
    ...leadObject(workspace, latest),
    created_at: enrollments[0]!.addedAt,
    lead_campaign_data: enrollments.map((lead) => ({
      campaign_lead_map_id: asNumber(lead.providerIds.campaignLeadMapId!),
      campaign_id: asNumber(lead.campaignId),
      campaign_name: workspace.campaigns.get(lead.campaignId)?.name ?? null,
      client_id: null,
      client_email: null,
      lead_category_id: null,
    })),
  });
}

function campaignLead(context: RouteContext) {
  const campaign = campaignOf(context);
  if (!campaign) return { error: error(404, 'Campaign not found') };
  const lead = leadsInCampaign(context.workspace, campaign.id).find(
    (item) => item.leadId === context.params.leadId,
  );
  return lead ? { lead } : { error: error(404, 'Lead not found in campaign') };
}

function pauseLead(context: RouteContext) {
  const found = campaignLead(context);
  if (!found.lead) return found.error;
  if (found.lead.status === 'active') context.emulator.setStatus(found.lead, 'paused');
  return json(200, { ok: true, data: 'Lead paused successfully' });
}

function resumeLead(context: RouteContext) {
  const found = campaignLead(context);
  if (!found.lead) return found.error;
  // Resuming does not restart compressed playback: a resumed lead is played through the control API.
  if (found.lead.status === 'paused') found.lead.status = 'active';
  return json(200, { ok: true, data: 'Lead resumed successfully' });
}

function deleteLead(context: RouteContext) {
  const found = campaignLead(context);
  if (!found.lead) return found.error;
  context.emulator.setStatus(found.lead, 'removed');
  return json(200, { ok: true });
}

function replyInThread(context: RouteContext) {
  const { workspace, body, emulator } = context;
  const campaign = campaignOf(context);
  if (!campaign) return error(404, 'Campaign not found');
  const fields = isRecord(body) ? body : {};
  const statsId = idField(fields, 'email_stats_id');
  const emailBody = stringField(fields, 'email_body');
  if (!statsId || !emailBody) return error(400, '"email_stats_id" and "email_body" are required');
  // The stats id names one sent email of a lead of this campaign (EMAIL_REPLY's `stats_id`).
  const lead = leadsInCampaign(workspace, campaign.id).find((item) =>
    item.messages.some((message) => message.id === statsId),
  );
  if (!lead) return error(404, 'Email stats not found for this campaign');
  const thread: Record<string, string> = { email_stats_id: statsId };
  for (const key of ['reply_message_id', 'reply_email_time', 'to_email', 'cc', 'bcc']) {
    const value = stringField(fields, key);
    if (value !== null) thread[key] = value;
  }
  emulator.recordReply(workspace, {
    leadId: lead.leadId,
    campaignId: campaign.id,
    thread,
    subject: null,
    text: null,
    html: emailBody,
  });
  return json(200, { success: true, message: 'Reply sent successfully' });
}

function addWebhook(context: RouteContext) {
  const campaign = campaignOf(context);
  if (!campaign) return error(404, 'Campaign not found');
  const fields = isRecord(context.body) ? context.body : {};
  const url = stringField(fields, 'webhook_url');
  if (!url || !URL.canParse(url)) return error(400, '"webhook_url" must be a valid uri');
  const eventTypes = Array.isArray(fields.event_types)
    ? fields.event_types.filter((item): item is string => typeof item === 'string')
    : null;
  const registration = context.emulator.registerWebhook(context.workspace, {
    url,
    campaignId: campaign.id,
    eventTypes,
    secretKey: null,
  });
  return json(200, {
    ok: true,
    data: {
      id: registration.id,
      name: stringField(fields, 'name'),
      webhook_url: url,
      event_types: eventTypes,
      categories: Array.isArray(fields.categories) ? (fields.categories as JsonValue[]) : [],
      campaign_id: asNumber(campaign.id),
    },
  });
}

/** A campaign object of the campaign endpoints (the fields of get-all's example, emulated campaigns always running). */
const campaignObject = (campaign: Campaign): JsonObject => ({
  id: asNumber(campaign.id),
  user_id: 1,
  created_at: campaign.createdAt,
  updated_at: campaign.createdAt,
  status: 'ACTIVE',
  name: campaign.name,
  track_settings: [],
  scheduler_cron_value: null,
  min_time_btwn_emails: 10,
  max_leads_per_day: 100,
  stop_lead_settings: 'REPLY_TO_AN_EMAIL',
  unsubscribe_text: '',
  parent_campaign_id: null,
  client_id: null,
});

/** Every campaign of the account as a bare array, highest id first; Smartlead documents no paging here. */
function allCampaigns({ workspace }: RouteContext) {
  const campaigns = [...workspace.campaigns.values()].sort((left, right) => {
    const byNumber = Number(right.id) - Number(left.id);
    return Number.isNaN(byNumber) ? right.id.localeCompare(left.id) : byNumber;
  });
  return json(200, campaigns.map(campaignObject));
}

const routes: Route[] = [
  // The reference writes it `/campaigns/`; the help center `/campaigns`.
  { method: 'GET', path: '/campaigns/', handle: allCampaigns },
  { method: 'GET', path: '/campaigns', handle: allCampaigns },
  {
    method: 'GET',
    path: '/campaigns/:campaignId',
    handle: (context) => {
      const campaign = campaignOf(context);
      if (!campaign) return error(404, 'Campaign not found');
      return json(200, campaignObject(campaign));
    },
  },
  { method: 'POST', path: '/campaigns/:campaignId/leads', addsLeads: true, handle: addLeads },
  { method: 'GET', path: '/campaigns/:campaignId/leads', handle: listCampaignLeads },
  { method: 'GET', path: '/leads/', handle: leadByEmail },
  { method: 'GET', path: '/leads', handle: leadByEmail },
  { method: 'POST', path: '/campaigns/:campaignId/leads/:leadId/pause', handle: pauseLead },
  { method: 'POST', path: '/campaigns/:campaignId/leads/:leadId/resume', handle: resumeLead },
  { method: 'DELETE', path: '/campaigns/:campaignId/leads/:leadId', handle: deleteLead },
  { method: 'POST', path: '/campaigns/:campaignId/reply-email-thread', handle: replyInThread },
  { method: 'POST', path: '/campaigns/:campaignId/webhooks', handle: addWebhook },
  {
    method: 'GET',
    path: '/campaigns/:campaignId/webhooks',
    handle: (context) => {
      const campaign = campaignOf(context);
      if (!campaign) return error(404, 'Campaign not found');
      const hooks = context.workspace.webhooks.filter((hook) => hook.campaignId === campaign.id);
      return json(
        200,
        hooks.map((hook) => ({ id: hook.id, webhook_url: hook.url, event_types: hook.eventTypes })),
      );
    },
  },
];

/** The categories played for a classification (SMARTLEAD_CATEGORY_RESPONSE_TYPES maps them back). */
const CATEGORIES = {
  positive: { id: 1, name: 'Interested' },
  negative: { id: 3, name: 'Not Interested' },
  neutral: { id: 9, name: 'Follow Up Later' },
} as const;

function nativeEvents(context: EventContext): NativeEvent[] {
  const { lead, campaign, at, message, reply, classification, workspace } = context;
  const leadName = [lead.firstName, lead.lastName].filter(Boolean).join(' ') || null;
  const base: JsonObject = {
    webhook_id: 1,
    webhook_name: 'Emulated webhook',
    sl_email_lead_id: asNumber(lead.leadId),
    sl_email_lead_map_id: asNumber(lead.providerIds.campaignLeadMapId!),
    event_timestamp: at,
    from_email: lead.senderAccount,
    to_email: lead.email,
    to_name: leadName,
    campaign_id: asNumber(campaign.id),
    campaign_name: campaign.name,
    campaign_status: 'ACTIVE',
    client_id: null,
    app_url: `https://app.smartlead.ai/app/master-inbox?leadMap=${lead.providerIds.campaignLeadMapId}`,
    ...(context.secretKey ? { secret_key: context.secretKey } : {}),
    metadata: { webhook_created_at: campaign.createdAt },
  };
  const sent: JsonObject = message
    ? {
        stats_id: message.id,
        sequence_number: message.step,
        subject: message.subject,
        sent_message_body: `<div>${message.text}</div>`,
        sent_message: {
          message_id: message.messageIdHeader,
          html: `<div>${message.text}</div>`,
          text: message.text,
          time: message.at,
        },
      }
    : {};
  const event = (name: string, fields: JsonObject): NativeEvent => ({
    name,
    payload: { ...base, event_type: name, ...fields },
  });
  switch (context.type) {
    case 'sent':
      return [
        event('EMAIL_SENT', {
          ...sent,
          time_sent: at,
          custom_subject: message!.subject,
          custom_email_message: `<div>${message!.text}</div>`,
          message_id: message!.messageIdHeader,
          description: `Email ${message!.step} to ${lead.email} sent for campaign - ${campaign.name}`,
        }),
      ];
    case 'opened':
      return [event('EMAIL_OPEN', { ...sent, time_opened: at })];
    case 'clicked': {
      const link = `https://${workspace.mailbox.split('@')[1]}/emulated-link`;
      return [
        event('EMAIL_LINK_CLICK', { ...sent, time_clicked: at, link_clicked: [link], link_details: [link] }),
      ];
    }
    case 'replied': {
      const replied = event('EMAIL_REPLY', {
        ...sent,
        sl_lead_email: lead.email,
        stats_thread_id: uuid(),
        time_replied: at,
        subject: reply!.subject,
        message_id: reply!.messageIdHeader,
        reply_body: `<div>${reply!.text}</div>`,
        reply_message: {
          message_id: reply!.messageIdHeader,
          html: `<div>${reply!.text}</div>`,
          text: reply!.text,
          time: reply!.at,
        },
        preview_text: reply!.text,
        description: `${lead.email} replied to Email ${message!.step} for campaign - ${campaign.name}`,
      });
      if (!classification) return [replied];
      const category = CATEGORIES[classification];
      const lastReply: JsonObject = {
        stats_id: message!.id,
        type: 'REPLY',
        message_id: reply!.messageIdHeader,
        time: reply!.at,
        email_body: `<div>${reply!.text}</div>`,
      };
      return [
        replied,
        event('LEAD_CATEGORY_UPDATED', {
          lead_id: asNumber(lead.leadId),
          created_at: at,
          from: lead.senderAccount,
          to: lead.email,
          lead_email: lead.email,
          lead_name: leadName,
          category: category.name,
          lead_category_id: category.id,
          lead_category: { old_id: null, old_name: null, new_id: category.id, new_name: category.name },
          lead_data: { ...leadObject(workspace, lead), category: { name: category.name } },
          lastReply,
          last_reply: lastReply,
          description: `${lead.email} was categorised as ${category.name}`,
        }),
      ];
    }
    case 'bounced':
      return [
        event('EMAIL_BOUNCE', {
          ...sent,
          time_sent: message!.at,
          is_bounced: true,
          bounce_message: {
            message_id: `<bounce-${uuid()}@mx.example>`,
            html: '',
            text: 'Mailbox unavailable',
            time: at,
          },
        }),
      ];
    case 'unsubscribed':
      return [
        event('LEAD_UNSUBSCRIBED', {
          ...sent,
          lead_email: lead.email,
          lead_name: leadName,
          unsubscribed_client_id_map: {},
        }),
      ];
    case 'completed':
      return [];
  }
}

export const smartleadSpec: ProviderEmulatorSpec = {
  provider: 'smartlead',
  basePath: new URL(FACTS.defaultBaseUrl).pathname,
  apiKeyOf: (_request, url) => url.searchParams.get('api_key'),
  error,
  newCampaignId: campaignIds,
  newMessageId: uuid,
  newReplyId: uuid,
  supports: ['sent', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed'],
  nativeEvents,
  routes,
};
