import * as z from 'zod/mini';
import type {
  AcceptedCredentials,
  EnrolledLead,
  LeadOutcome,
  LeadToEnroll,
  ProviderCampaignPage,
  ProviderClient,
  ProviderCredentials,
  ProviderHttp,
} from '#providers/contract.ts';
import {
  EMAIL_REQUIRED,
  expectKeyAccepted,
  expectSuccess,
  offsetCursor,
  presentFields,
  readBody,
  statusError,
} from '#providers/responses.ts';
import { lenient } from '#schemas/lenient.ts';
import { LEMLIST_FACTS } from './facts.ts';

/**
 * lemlist's API (base https://api.lemlist.com/api), HTTP Basic with an empty
 * user and the key as the password
 * (https://developer.lemlist.com/api-reference/getting-started/authentication;
 * the API also takes the key as an `access_token` query parameter, which the
 * client never uses: a key in a URL ends up in logs).
 *
 * - Credential check: `GET /team`, the cheapest authenticated read (one small
 *   object, no paging, no parameter); a key lemlist does not know answers 401
 *   "The authentication you supplied is incorrect", a blocked user 403, and
 *   "No user found for this API key" 404 (OpenAPI `GET /team`,
 *   https://developer.lemlist.com/api-reference/openapi/v2.json). lemlist
 *   limits requests per API key ("Rate Limit" in the same document), so no
 *   workspace id is answered.
 * - Campaigns: `GET /campaigns?version=v2&offset=&limit=100&sortBy=createdAt&sortOrder=asc`
 *   answers an array of campaigns `{_id, name, status, hasError?, …}`; `limit`
 *   is 100 at most, a shorter page is the last, and oldest-first keeps an
 *   offset stable while campaigns are created
 *   (https://developer.lemlist.com/api-reference/endpoints/campaigns/get-many-campaigns).
 *   Status is one of running, paused, draft, ended, archived, errors.
 *   Only a running campaign without errors takes a lead now: in the others
 *   an added lead waits (a draft's leads wait in review, the page's own
 *   example of a lead in a draft campaign), and `hasError` names a campaign
 *   that cannot send ("Your campaign does not have sender.").
 * - Add: `POST /campaigns/{campaignId}/leads/{email}?deduplicate=true`, one
 *   lead per request, the lead's fields and any custom variables as the JSON
 *   body's keys; `deduplicate=true` makes lemlist refuse a lead whose email is
 *   in another campaign already. It answers the lead, `_id` first
 *   (https://developer.lemlist.com/api-reference/endpoints/leads/create-lead-in-campaign;
 *   the classic "Add a Lead in a Campaign" page,
 *   https://github.com/l3mpire/lemlist-developer source/includes/_campaigns.md).
 * - Find: `GET /leads/{email}?version=v2` answers an array, the lead in each
 *   of its campaigns, each item nesting `campaign {id, name, status}`; there
 *   is no top-level `campaignId` in v2, the only version the page documents
 *   ("You must set the mandatory query parameter version to version=v2",
 *   https://developer.lemlist.com/api-reference/endpoints/leads/get-lead-by-email).
 * - Stop: `POST /leads/pause/{leadId}?campaignId=` pauses the lead in that
 *   campaign only (https://developer.lemlist.com/api-reference/endpoints/leads/pause-lead;
 *   its counterpart `POST /leads/start/{leadId}?campaignId=`,
 *   https://developer.lemlist.com/api-reference/endpoints/leads/resume-paused-lead).
 * - No reply: the API documents no way to answer a lead in the thread of the
 *   campaign's message (its inbox "Send Email" starts a message to a contact;
 *   `replyToActivityId` exists only on drafts), so its `replyThreadNamedBy` is null.
 */

/** The add's statuses that refuse this one lead rather than the request (a duplicate, a bad email). */
const LEAD_REFUSAL_STATUSES = new Set([400, 409, 422]);

/** The add's answer: the lead, `_id` first. */
const addedLead = z.object({ _id: z.string() });
/** One item of `GET /leads/{email}?version=v2`: the lead in one of its campaigns. */
const leadInCampaign = z.object({
  _id: z.string(),
  campaign: lenient(z.nullish(z.object({ id: z.string() }))),
});
type LeadInCampaign = z.infer<typeof leadInCampaign>;
const leadsByEmail = z.array(leadInCampaign);

/** The page size of GET /campaigns: its default and its maximum. */
const CAMPAIGN_PAGE_SIZE = 100;
const campaignsPage = z.array(
  z.object({
    _id: z.string(),
    name: z.string(),
    status: z.string(),
    hasError: lenient(z.nullish(z.boolean())),
  }),
);

const basicAuth = (credentials: ProviderCredentials) => ({
  Authorization: `Basic ${Buffer.from(`:${credentials.apiKey}`).toString('base64')}`,
});
const campaignLeadPath = (campaignId: string, email: string) =>
  `/campaigns/${encodeURIComponent(campaignId)}/leads/${encodeURIComponent(email)}`;

function leadBody(lead: LeadToEnroll) {
  // Custom variables are plain keys of the lead in lemlist; the lead's own fields are set after
  // them, so a variable named like one of lemlist's fields never overwrites the contact's data.
  return {
    ...lead.variables,
    ...presentFields({
      firstName: lead.firstName,
      lastName: lead.lastName,
      companyName: lead.companyName,
      companyDomain: lead.companyDomain,
      linkedinUrl: lead.linkedinUrl,
      jobTitle: lead.title,
    }),
  };
}

/** lemlist's leads with that email (one per campaign), empty when none. */
async function leadsWithEmail(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  email: string,
): Promise<LeadInCampaign[]> {
  const response = await http({
    method: 'GET',
    path: `/leads/${encodeURIComponent(email)}`,
    query: { version: 'v2' },
    headers: basicAuth(credentials),
  });
  if (response.status === 404) return [];
  expectSuccess(response, 'the provider lead does not exist');
  return readBody(response, leadsByEmail, 'the lead lookup');
}

/** The lead's id in that campaign, among its leads at lemlist. */
const idIn = (leads: readonly LeadInCampaign[], campaignId: string): string | null =>
  leads.find((found) => found.campaign?.id === campaignId)?._id ?? null;

async function enrollOne(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: LeadToEnroll,
): Promise<LeadOutcome> {
  if (!lead.email) return { ref: lead.ref, status: 'refused', reason: EMAIL_REQUIRED };
  const response = await http({
    method: 'POST',
    path: campaignLeadPath(campaignId, lead.email),
    query: { deduplicate: 'true' },
    headers: basicAuth(credentials),
    body: leadBody(lead),
  });
  if (LEAD_REFUSAL_STATUSES.has(response.status)) {
    // lemlist refuses a lead it holds already, here or in another campaign: which one is read back, so
    // a lead an earlier attempt enrolled keeps its id instead of being refused.
    const existing = await leadsWithEmail(http, credentials, lead.email);
    const here = idIn(existing, campaignId);
    if (here) return { ref: lead.ref, status: 'enrolled', leadId: here };
    return {
      ref: lead.ref,
      status: 'refused',
      reason:
        existing.length > 0
          ? 'already in another campaign at the provider'
          : `the provider refused the lead (HTTP ${response.status})`,
    };
  }
  const error = statusError(response);
  if (error) throw error;
  return {
    ref: lead.ref,
    status: 'enrolled',
    leadId: readBody(response, addedLead, 'the lead import')._id,
  };
}

async function enroll(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  leads: readonly LeadToEnroll[],
): Promise<LeadOutcome[]> {
  const outcomes: LeadOutcome[] = [];
  // One lead per request (maxLeadsPerRequest 1), one after the other: the caller's token bucket paces them.
  for (const lead of leads) outcomes.push(await enrollOne(http, credentials, campaignId, lead));
  return outcomes;
}

async function findEnrolled(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: LeadToEnroll,
): Promise<string | null> {
  if (!lead.email) return null;
  return idIn(await leadsWithEmail(http, credentials, lead.email), campaignId);
}

async function stop(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: EnrolledLead,
): Promise<void> {
  const response = await http({
    method: 'POST',
    path: `/leads/pause/${encodeURIComponent(lead.leadId)}`,
    query: { campaignId },
    headers: basicAuth(credentials),
  });
  // Removed already: the lead is stopped.
  if (response.status === 404) return;
  expectSuccess(response);
}

/** A 401/403, or GET /team's 404 "No user found for this API key": lemlist does not take the key. */
const REFUSED_KEY_STATUSES = [401, 403, 404];

async function checkCredentials(
  http: ProviderHttp,
  credentials: ProviderCredentials,
): Promise<AcceptedCredentials> {
  const response = await http({ method: 'GET', path: '/team', headers: basicAuth(credentials) });
  expectKeyAccepted(LEMLIST_FACTS.displayName, response, REFUSED_KEY_STATUSES);
  expectSuccess(response);
  readBody(response, z.object({ _id: z.string() }), 'the team lookup');
  // lemlist's limit is per API key: no workspace shares it.
  return { workspaceId: null };
}

async function listCampaigns(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  cursor: string | null,
): Promise<ProviderCampaignPage> {
  // The cursor is the offset this method answered as `next`.
  const offset = offsetCursor(cursor);
  const response = await http({
    method: 'GET',
    path: '/campaigns',
    query: {
      version: 'v2',
      offset: String(offset),
      limit: String(CAMPAIGN_PAGE_SIZE),
      sortBy: 'createdAt',
      sortOrder: 'asc',
    },
    headers: basicAuth(credentials),
  });
  expectKeyAccepted(LEMLIST_FACTS.displayName, response);
  expectSuccess(response);
  const campaigns = readBody(response, campaignsPage, 'the campaign list');
  return {
    campaigns: campaigns.map((campaign) => {
      const status = campaign.status.toLowerCase();
      return {
        id: campaign._id,
        name: campaign.name,
        status,
        acceptsLeads: status === 'running' && campaign.hasError !== true,
      };
    }),
    next: campaigns.length < CAMPAIGN_PAGE_SIZE ? null : String(offset + campaigns.length),
  };
}

export const lemlistClient: ProviderClient = {
  provider: 'lemlist',
  facts: LEMLIST_FACTS,
  checkCredentials,
  listCampaigns,
  enroll,
  findEnrolled,
  stop,
};
