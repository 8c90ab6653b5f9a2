import * as z from 'zod/mini';
import { lenient } from '#schemas/lenient.ts';
import { EMAIL_REQUIRED, expectSuccess, presentFields, readBody, statusError } from './responses.ts';
import type {
  EnrolledLead,
  LeadOutcome,
  LeadToEnroll,
  ProviderClient,
  ProviderCredentials,
  ProviderHttp,
} from './types.ts';

/**
 * lemlist's API (base https://api.lemlist.com/api), HTTP Basic with an empty
 * user and the key as the password
 * (https://developer.lemlist.com/api-reference/getting-started/authentication).
 *
 * - Add: `POST /campaigns/{campaignId}/leads/{email}?deduplicate=true`, one
 *   lead per request, the lead's fields and any custom variables as the JSON
 *   body's keys; `deduplicate=true` makes lemlist refuse a lead whose email is
 *   in another campaign already. It answers the lead, `_id` first
 *   (https://developer.lemlist.com/api-reference/endpoints/leads/create-lead-in-campaign;
 *   the classic "Add a Lead in a Campaign" page,
 *   https://github.com/l3mpire/lemlist-developer source/includes/_campaigns.md).
 * - Find: `GET /leads/{email}` answers the lead (or its leads) with
 *   `campaignId` (https://developer.lemlist.com/api-reference/endpoints/leads/get-lead-by-email).
 * - Stop: `POST /leads/pause/{leadId}?campaignId=` pauses the lead in that
 *   campaign only (https://developer.lemlist.com/api-reference/endpoints/leads/pause-lead;
 *   its counterpart `POST /leads/start/{leadId}?campaignId=`,
 *   https://developer.lemlist.com/api-reference/endpoints/leads/resume-paused-lead).
 * - No reply: the API documents no way to answer a lead in the thread of the
 *   campaign's message (its inbox "Send Email" starts a message to a contact;
 *   `replyToActivityId` exists only on drafts), so `repliesInThread` is false.
 */

/** The add's statuses that refuse this one lead rather than the request (a duplicate, a bad email). */
const LEAD_REFUSAL_STATUSES = new Set([400, 409, 422]);

const lemlistLead = z.object({
  _id: z.string(),
  campaignId: lenient(z.nullish(z.string())),
});
type LemlistLead = z.infer<typeof lemlistLead>;
/** `GET /leads/{email}` answers one lead, or (newer API) the lead in each of its campaigns. */
const leadsByEmail = z.union([z.array(lemlistLead), lemlistLead]);

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
): Promise<LemlistLead[]> {
  const response = await http({
    method: 'GET',
    path: `/leads/${encodeURIComponent(email)}`,
    headers: basicAuth(credentials),
  });
  if (response.status === 404) return [];
  expectSuccess(response, 'the provider lead does not exist');
  const found = readBody(response, leadsByEmail, 'the lead lookup');
  return Array.isArray(found) ? found : [found];
}

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
    const here = existing.find((found) => found.campaignId === campaignId);
    if (here) return { ref: lead.ref, status: 'enrolled', leadId: here._id };
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
    leadId: readBody(response, lemlistLead, 'the lead import')._id,
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
  const found = await leadsWithEmail(http, credentials, lead.email);
  return found.find((entry) => entry.campaignId === campaignId)?._id ?? null;
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

export const lemlistClient: ProviderClient = { provider: 'lemlist', enroll, findEnrolled, stop };
