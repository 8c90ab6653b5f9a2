import * as z from 'zod/mini';
import {
  type EnrolledLead,
  type LeadOutcome,
  type LeadToEnroll,
  ProviderApiError,
  type ProviderClient,
  type ProviderCredentials,
  type ProviderHttp,
  type ReplyThread,
} from '#providers/contract.ts';
import {
  EMAIL_REQUIRED,
  expectKeyAccepted,
  expectSuccess,
  idText,
  leadsWith,
  presentFields,
  readBody,
  sameEmail,
} from '#providers/responses.ts';
import { lenient } from '#schemas/lenient.ts';
import { SMARTLEAD_FACTS } from './facts.ts';

/**
 * Smartlead's API v1 (base https://server.smartlead.ai/api/v1), the key as the
 * `api_key` query parameter on every request
 * (https://api.smartlead.ai/authentication).
 *
 * - Add: `POST /campaigns/{campaign_id}/leads` with `lead_list` and `settings`
 *   (https://api.smartlead.ai/api-reference/leads/add-to-campaign,
 *   https://api.smartlead.ai/guides/lead-management). Its answer has counts
 *   only (`upload_count`, `already_added_to_campaign`, `invalid_email_count`,
 *   `block_count`, …), so each lead is read back by email afterwards.
 * - Find: `GET /leads/?email=` answers the lead with `lead_campaign_data`, the
 *   campaigns it is in, or `{}` when there is none
 *   (https://api.smartlead.ai/api-reference/leads/get-by-email).
 * - Stop: `POST /campaigns/{campaign_id}/leads/{lead_id}/pause`
 *   (https://api.smartlead.ai/api-reference/leads/pause).
 * - Credential check and campaign listing: `GET /campaigns/`, the authentication page's own
 *   example of an authenticated request (https://api.smartlead.ai/authentication: a refused key is
 *   401 `{success: false, error: {code: 'UNAUTHORIZED', message}}`). It answers every campaign of
 *   the account at once, newest (highest id) first, as a bare array: "Currently, this endpoint
 *   returns all campaigns" (https://api.smartlead.ai/api-reference/campaigns/get-all). The
 *   reference documents no cheaper read for a plain key (its client and user endpoints are an
 *   agency's), so the check costs one list.
 * - Reply: `POST /campaigns/{campaign_id}/reply-email-thread` with
 *   `email_stats_id` and `email_body`, and the replied message's
 *   `reply_message_id` / `reply_email_time` / `reply_email_body`
 *   (https://api.smartlead.ai/api-reference/campaigns/reply-email-thread).
 */

/** The import settings that keep Smartlead's own checks on: block list, unsubscribes, leads of other campaigns. */
const IMPORT_SETTINGS = {
  ignore_global_block_list: false,
  ignore_unsubscribe_list: false,
  ignore_duplicate_leads_in_other_campaign: false,
} as const;

const count = lenient(z.optional(z.number()));
const addAnswer = z.object({
  upload_count: count,
  already_added_to_campaign: count,
  invalid_email_count: count,
  block_count: count,
  invalid_emails: lenient(z.optional(z.array(z.string()))),
  // Documented as a list; its items' shape is not, so only "is it there" is read.
  unsubscribed_leads: lenient(z.optional(z.array(z.unknown()))),
});
type AddAnswer = z.infer<typeof addAnswer>;

const smartleadId = z.union([z.number(), z.string()]);
/** `{}` when no lead has that email. */
const leadByEmail = z.object({
  id: z.optional(smartleadId),
  is_unsubscribed: lenient(z.nullish(z.boolean())),
  lead_campaign_data: lenient(
    z.nullish(z.array(z.object({ campaign_id: lenient(z.optional(smartleadId)) }))),
  ),
});
type LeadByEmail = z.infer<typeof leadByEmail>;

/**
 * One campaign of `GET /campaigns/` (api.smartlead.ai/api-reference/campaigns/get-all): the fields
 * read; its status is one of DRAFTED, ACTIVE, PAUSED, STOPPED, COMPLETED, ARCHIVED
 * (api.smartlead.ai/api-reference/campaigns/get-by-id).
 */
const campaignListItem = z.object({
  id: smartleadId,
  name: lenient(z.nullish(z.string())),
  status: z.string(),
});
const campaignList = z.array(campaignListItem);

const withKey = (credentials: ProviderCredentials, query: Record<string, string> = {}) => ({
  ...query,
  api_key: credentials.apiKey,
});
const campaignPath = (campaignId: string) => `/campaigns/${encodeURIComponent(campaignId)}`;

function leadListItem(lead: LeadToEnroll & { email: string }) {
  return {
    email: lead.email,
    ...presentFields({
      first_name: lead.firstName,
      last_name: lead.lastName,
      company_name: lead.companyName,
      website: lead.companyDomain,
      linkedin_profile: lead.linkedinUrl,
    }),
    // Smartlead's lead has no title field: its guide keeps the job title as the custom field
    // `job_title`. The snippet variables come last, so a variable of that name is the one used.
    custom_fields: { ...presentFields({ job_title: lead.title }), ...lead.variables },
  };
}

/** The lead Smartlead has with that email, or null (`{}` or 404). Throws on any other failure. */
async function lookUp(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  email: string,
): Promise<LeadByEmail | null> {
  const response = await http({ method: 'GET', path: '/leads/', query: withKey(credentials, { email }) });
  if (response.status === 404) return null;
  expectSuccess(response);
  const lead = readBody(response, leadByEmail, 'the lead lookup');
  return lead.id === undefined ? null : lead;
}

const inCampaign = (lead: LeadByEmail, campaignId: string): boolean =>
  (lead.lead_campaign_data ?? []).some(
    (entry) => entry.campaign_id !== undefined && idText(entry.campaign_id) === campaignId,
  );

/** Why a lead the add did not put in the campaign was left out, from what the lookup and the counts say. */
function refusalReason(lead: LeadByEmail | null, email: string, answer: AddAnswer): string {
  if (lead?.is_unsubscribed) return 'unsubscribed at the provider';
  if (lead && (lead.lead_campaign_data ?? []).length > 0)
    return 'already in another campaign at the provider';
  if ((answer.invalid_emails ?? []).some((invalid) => sameEmail(invalid, email))) {
    return 'the provider refused the email address as invalid';
  }
  // Listed as emails (what the emulator and observed answers show); a list of anything else only
  // counts when nothing else can explain the refusal.
  const unsubscribed = answer.unsubscribed_leads ?? [];
  if (
    unsubscribed.some((entry) => typeof entry === 'string' && sameEmail(entry, email)) ||
    (unsubscribed.length > 0 && (answer.invalid_email_count ?? 0) === 0 && (answer.block_count ?? 0) === 0)
  ) {
    return 'unsubscribed at the provider';
  }
  if (lead === null && (answer.invalid_email_count ?? 0) > 0 && (answer.block_count ?? 0) === 0) {
    return 'the provider refused the email address as invalid';
  }
  if (lead === null && (answer.block_count ?? 0) > 0) return 'blocked at the provider';
  return 'the provider did not add the lead';
}

async function enroll(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  leads: readonly LeadToEnroll[],
  onOutcome?: (outcome: LeadOutcome) => Promise<void>,
): Promise<LeadOutcome[]> {
  const { sendable, refused: outcomes } = leadsWith(leads, 'email', EMAIL_REQUIRED);
  for (const outcome of outcomes) await onOutcome?.(outcome);
  if (sendable.length === 0) return outcomes;

  const response = await http({
    method: 'POST',
    path: `${campaignPath(campaignId)}/leads`,
    query: withKey(credentials),
    body: { lead_list: sendable.map(leadListItem), settings: IMPORT_SETTINGS },
  });
  expectSuccess(response);
  const answer = readBody(response, addAnswer, 'the lead import');

  // The counts do not say which lead is which: each is read back. One lookup per distinct email,
  // so a lead listed twice costs one request. The campaign's lead list
  // (https://api.smartlead.ai/api-reference/leads/get-by-campaign) has no email filter and no
  // documented order, so finding a batch in it means paging the whole campaign. Each outcome is
  // told as soon as its lookup answers: at one request a second, the last lead of a full batch
  // is known minutes after the first.
  const lookups = new Map<string, LeadByEmail | null>();
  for (const lead of sendable) {
    const key = lead.email.trim().toLowerCase();
    if (!lookups.has(key)) lookups.set(key, await lookUp(http, credentials, lead.email));
    const found = lookups.get(key) ?? null;
    const outcome: LeadOutcome =
      found?.id !== undefined && inCampaign(found, campaignId)
        ? { ref: lead.ref, status: 'enrolled', leadId: idText(found.id) }
        : { ref: lead.ref, status: 'refused', reason: refusalReason(found, lead.email, answer) };
    outcomes.push(outcome);
    await onOutcome?.(outcome);
  }
  return outcomes;
}

async function findEnrolled(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: LeadToEnroll,
): Promise<string | null> {
  if (!lead.email) return null;
  const found = await lookUp(http, credentials, lead.email);
  return found?.id !== undefined && inCampaign(found, campaignId) ? idText(found.id) : null;
}

async function stop(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: EnrolledLead,
): Promise<void> {
  const response = await http({
    method: 'POST',
    path: `${campaignPath(campaignId)}/leads/${encodeURIComponent(lead.leadId)}/pause`,
    query: withKey(credentials),
  });
  // A lead gone already (deleted at the provider) is stopped as far as the service cares.
  if (response.status === 404) return;
  expectSuccess(response);
}

/** The thread fields the reply sends, named as Smartlead's reply endpoint names them (see the webhook mapper). */
function threadFields(replyThread: ReplyThread) {
  const emailStatsId = replyThread.email_stats_id;
  if (!emailStatsId) {
    throw new ProviderApiError('refused', 'the reply thread has no email_stats_id to answer');
  }
  return {
    email_stats_id: emailStatsId,
    ...presentFields({
      reply_message_id: replyThread.reply_message_id,
      reply_email_time: replyThread.reply_email_time,
      reply_email_body: replyThread.reply_email_body,
    }),
  };
}

/** The whole campaign list (`GET /campaigns/`); a refused key is `Smartlead refused this API key (<status>)`. */
async function allCampaigns(http: ProviderHttp, credentials: ProviderCredentials) {
  const response = await http({ method: 'GET', path: '/campaigns/', query: withKey(credentials) });
  expectKeyAccepted(SMARTLEAD_FACTS.displayName, response);
  expectSuccess(response);
  return readBody(response, campaignList, 'the campaign list');
}

export const smartleadClient: ProviderClient = {
  provider: 'smartlead',
  facts: SMARTLEAD_FACTS,
  async checkCredentials(http, credentials) {
    await allCampaigns(http, credentials);
    // Smartlead's limit is the key's own (api.smartlead.ai/guides/rate-limits): no shared workspace.
    return { workspaceId: null };
  },
  async listCampaigns(http, credentials) {
    // Smartlead does not page this list: every campaign comes in the first answer, so there is no next page.
    const campaigns = (await allCampaigns(http, credentials)).map((campaign) => ({
      id: idText(campaign.id),
      name: campaign.name ?? '',
      status: campaign.status.toLowerCase(),
      // Leads added to a drafted, paused or stopped campaign wait for it to run; a completed or archived one sends nothing.
      acceptsLeads: campaign.status.toUpperCase() === 'ACTIVE',
    }));
    return { campaigns, next: null };
  },
  enroll,
  findEnrolled,
  stop,
  async reply(http, credentials, thread, message) {
    const response = await http({
      method: 'POST',
      path: `${campaignPath(thread.campaignId)}/reply-email-thread`,
      query: withKey(credentials),
      // Smartlead sends `email_body` as the mail's HTML; text alone is sent when there is no HTML.
      body: { ...threadFields(thread.replyThread), email_body: message.html || message.text },
    });
    expectSuccess(response);
    // The answer is `{success, message}`: Smartlead gives no id of the reply it sent.
    return { providerMessageId: null };
  },
};
