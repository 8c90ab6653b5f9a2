import * as z from 'zod/mini';
import { lenient } from '#schemas/lenient.ts';
import { expectSuccess, idText, leadsWith, presentFields, readBody, UNKNOWN_CAMPAIGN } from './responses.ts';
import {
  type EnrolledLead,
  type LeadOutcome,
  type LeadToEnroll,
  ProviderApiError,
  type ProviderClient,
  type ProviderCredentials,
  type ProviderHttp,
} from './types.ts';

/**
 * HeyReach's public API (base https://api.heyreach.io/api/public), the key in
 * the `X-API-KEY` header. Its reference is a Postman collection
 * (https://documenter.getpostman.com/view/23808049/2sA2xb5F75):
 *
 * - Add: `POST /campaign/AddLeadsToCampaignV2` with `campaignId` (a number)
 *   and `accountLeadPairs [{linkedInAccountId, lead}]`; a null account lets
 *   HeyReach pick among the campaign's senders. It answers counts only
 *   (`addedLeadsCount`, `updatedLeadsCount`, `failedLeadsCount`); a lead the
 *   campaign holds already is updated, not added twice.
 * - Find: `POST /campaign/GetCampaignsForLead` with the lead's `profileUrl`,
 *   answering `items [{campaignId, leadStatus, …}]`.
 * - Stop: `POST /campaign/StopLeadInCampaign` with `campaignId` and `leadUrl`.
 * - Reply: `POST /inbox/SendMessage` with `message`, `subject`,
 *   `conversationId` and `linkedInAccountId`.
 *
 * The lead's id is its LinkedIn profile URL: HeyReach answers no lead id to
 * an add, and names a lead by that URL to stop it or list its campaigns.
 */

const LINKEDIN_URL_REQUIRED = 'a LinkedIn profile URL is required';

const count = lenient(z.optional(z.number()));
const addAnswer = z.object({ addedLeadsCount: count, updatedLeadsCount: count, failedLeadsCount: count });
const campaignsForLead = z.object({
  items: lenient(
    z.nullish(z.array(z.object({ campaignId: lenient(z.optional(z.union([z.number(), z.string()]))) }))),
  ),
});

const apiKeyHeader = (credentials: ProviderCredentials) => ({ 'X-API-KEY': credentials.apiKey });

/** HeyReach's campaign ids are numbers (a `long`); another id cannot name one of its campaigns. */
function numericCampaignId(campaignId: string): number {
  const id = /^\d{1,15}$/.test(campaignId) ? Number(campaignId) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new ProviderApiError('refused', UNKNOWN_CAMPAIGN, null);
  return id;
}

function accountLeadPair(lead: LeadToEnroll & { linkedinUrl: string }) {
  return {
    // Null: HeyReach assigns one of the campaign's LinkedIn senders.
    linkedInAccountId: null,
    lead: {
      profileUrl: lead.linkedinUrl,
      ...presentFields({
        firstName: lead.firstName,
        lastName: lead.lastName,
        companyName: lead.companyName,
        position: lead.title,
        emailAddress: lead.email,
      }),
      customUserFields: Object.entries(lead.variables).map(([name, value]) => ({ name, value })),
    },
  };
}

/** Whether HeyReach lists the lead with that profile URL in the campaign. */
async function isInCampaign(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  profileUrl: string,
): Promise<boolean> {
  const response = await http({
    method: 'POST',
    path: '/campaign/GetCampaignsForLead',
    headers: apiKeyHeader(credentials),
    body: { profileUrl },
  });
  // A lead HeyReach has never seen.
  if (response.status === 404) return false;
  expectSuccess(response, 'the provider lead does not exist');
  const { items } = readBody(response, campaignsForLead, 'the lead lookup');
  return (items ?? []).some(
    (item) => item.campaignId !== undefined && idText(item.campaignId) === campaignId,
  );
}

async function enroll(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  leads: readonly LeadToEnroll[],
): Promise<LeadOutcome[]> {
  const { sendable, refused: outcomes } = leadsWith(leads, 'linkedinUrl', LINKEDIN_URL_REQUIRED);
  if (sendable.length === 0) return outcomes;

  const response = await http({
    method: 'POST',
    path: '/campaign/AddLeadsToCampaignV2',
    headers: apiKeyHeader(credentials),
    body: { campaignId: numericCampaignId(campaignId), accountLeadPairs: sendable.map(accountLeadPair) },
  });
  expectSuccess(response);
  const answer = readBody(response, addAnswer, 'the lead import');

  // Counts only: when none failed every lead is in; otherwise each is looked up to say which failed.
  const noneFailed = (answer.failedLeadsCount ?? 0) === 0;
  for (const lead of sendable) {
    const enrolled = noneFailed || (await isInCampaign(http, credentials, campaignId, lead.linkedinUrl));
    outcomes.push(
      enrolled
        ? { ref: lead.ref, status: 'enrolled', leadId: lead.linkedinUrl }
        : { ref: lead.ref, status: 'refused', reason: 'the provider could not add the lead' },
    );
  }
  return outcomes;
}

async function findEnrolled(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: LeadToEnroll,
): Promise<string | null> {
  // Without a profile URL the lead was never sent to HeyReach.
  if (!lead.linkedinUrl) return null;
  return (await isInCampaign(http, credentials, campaignId, lead.linkedinUrl)) ? lead.linkedinUrl : null;
}

async function stop(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: EnrolledLead,
): Promise<void> {
  const response = await http({
    method: 'POST',
    path: '/campaign/StopLeadInCampaign',
    headers: apiKeyHeader(credentials),
    body: { campaignId: numericCampaignId(campaignId), leadUrl: lead.linkedinUrl ?? lead.leadId },
  });
  // HeyReach answers 404 for a lead no longer in the campaign: stopped already.
  if (response.status === 404) return;
  expectSuccess(response);
}

export const heyreachClient: ProviderClient = {
  provider: 'heyreach',
  enroll,
  findEnrolled,
  stop,
  async reply(http, credentials, thread, message) {
    const { conversationId, linkedInAccountId } = thread.replyThread;
    const accountId =
      linkedInAccountId && /^\d{1,15}$/.test(linkedInAccountId) ? Number(linkedInAccountId) : null;
    if (!conversationId || accountId === null) {
      throw new ProviderApiError(
        'refused',
        'the reply thread has no conversationId and linkedInAccountId to answer',
      );
    }
    const response = await http({
      method: 'POST',
      path: '/inbox/SendMessage',
      headers: apiKeyHeader(credentials),
      // LinkedIn messages are text; the subject is used by InMail only.
      body: { message: message.text, subject: message.subject, conversationId, linkedInAccountId: accountId },
    });
    expectSuccess(response, 'the provider has no such conversation');
    // HeyReach answers no id of the message sent.
    return { providerMessageId: null };
  },
};
