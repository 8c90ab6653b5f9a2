import * as z from 'zod/mini';
import {
  type AcceptedCredentials,
  type EnrolledLead,
  type LeadOutcome,
  type LeadToEnroll,
  ProviderApiError,
  type ProviderCampaignPage,
  type ProviderClient,
  type ProviderCredentials,
  type ProviderHttp,
} from '#providers/contract.ts';
import {
  expectKeyAccepted,
  expectSuccess,
  idText,
  leadsWith,
  offsetCursor,
  presentFields,
  readBody,
  UNKNOWN_CAMPAIGN,
} from '#providers/responses.ts';
import { lenient } from '#schemas/lenient.ts';
import { HEYREACH_FACTS } from './facts.ts';

/**
 * HeyReach's public API (base https://api.heyreach.io/api/public), the key in
 * the `X-API-KEY` header. Its reference is a Postman collection
 * (https://documenter.getpostman.com/view/23808049/2sA2xb5F75); each shape
 * below is from its page of that collection:
 *
 * - Credential check: `GET /auth/CheckApiKey` (Authentication folder): an
 *   empty 200 when the key is valid, 401 when it is not. The cheapest
 *   authenticated call there is.
 * - Campaigns: `POST /campaign/GetAll` (Campaigns folder) with `offset` and
 *   `limit` (at most 100), optional `keyword`, `statuses` and `accountIds`,
 *   answering `{totalCount, items: [{id, name, status, campaignAccountIds,
 *   creationTime, …}]}`; `status` is one of DRAFT, IN_PROGRESS, PAUSED,
 *   FINISHED, CANCELED, FAILED, STARTING, SCHEDULED.
 * - One campaign: `GET /campaign/GetById?campaignId=`, the same object.
 * - Add: `POST /campaign/AddLeadsToCampaignV2` with `campaignId` (a number)
 *   and `accountLeadPairs [{linkedInAccountId, lead}]`, where
 *   `linkedInAccountId` is the sender of that lead, one of the campaign's
 *   `campaignAccountIds`. It answers counts only (`addedLeadsCount`,
 *   `updatedLeadsCount`, `failedLeadsCount`); a lead the campaign holds
 *   already is updated, not added twice. It answers 400 to a campaign that is
 *   not running (IN_PROGRESS, shown as ACTIVE in the app) or has no sender.
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
/** GetAll's largest page. */
const CAMPAIGN_PAGE = 100;
/**
 * The states AddLeadsToCampaignV2 takes leads in: IN_PROGRESS (the app's "Active"; ACTIVE is
 * accepted too, the name some of HeyReach's own pages use).
 */
const RUNNING = new Set(['IN_PROGRESS', 'ACTIVE']);

const count = lenient(z.optional(z.number()));
const addAnswer = z.object({ addedLeadsCount: count, updatedLeadsCount: count, failedLeadsCount: count });
const campaignsForLead = z.object({
  items: lenient(
    z.nullish(z.array(z.object({ campaignId: lenient(z.optional(z.union([z.number(), z.string()]))) }))),
  ),
});
const campaignObject = z.object({
  id: z.union([z.number(), z.string()]),
  name: lenient(z.nullish(z.string())),
  status: lenient(z.nullish(z.string())),
  campaignAccountIds: lenient(z.nullish(z.array(z.union([z.number(), z.string()])))),
});
const campaignPage = z.object({
  totalCount: lenient(z.optional(z.number())),
  items: z.array(campaignObject),
});
type CampaignObject = z.infer<typeof campaignObject>;

const apiKeyHeader = (credentials: ProviderCredentials) => ({ 'X-API-KEY': credentials.apiKey });

/** HeyReach's campaign ids are numbers (a `long`); another id cannot name one of its campaigns. */
function numericCampaignId(campaignId: string): number {
  const id = /^\d{1,15}$/.test(campaignId) ? Number(campaignId) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new ProviderApiError('refused', UNKNOWN_CAMPAIGN, null);
  return id;
}

/** Why the campaign takes no leads now, or null when it does. */
function notReadyReason(campaign: CampaignObject): string | null {
  const status = (campaign.status ?? '').toUpperCase();
  if (!RUNNING.has(status)) return `the provider campaign is not running (${status || 'no status'})`;
  // An absent list is the answer not saying, not a campaign without senders.
  if (campaign.campaignAccountIds && campaign.campaignAccountIds.length === 0)
    return 'the provider campaign has no LinkedIn sender account';
  return null;
}

async function readCampaign(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: number,
): Promise<CampaignObject> {
  const response = await http({
    method: 'GET',
    path: '/campaign/GetById',
    query: { campaignId: String(campaignId) },
    headers: apiKeyHeader(credentials),
  });
  expectSuccess(response);
  return readBody(response, campaignObject, 'the campaign read');
}

/** Throws `campaign-not-ready` with the reason when the campaign takes no leads now. */
function expectReady(campaign: CampaignObject): void {
  const reason = notReadyReason(campaign);
  if (reason) throw new ProviderApiError('campaign-not-ready', reason);
}

function accountLeadPair(lead: LeadToEnroll & { linkedinUrl: string }, linkedInAccountId: number | null) {
  return {
    // One of the campaign's own senders, as the add's documentation describes the field.
    linkedInAccountId,
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

/** The campaign's senders as numbers (HeyReach's account ids are `long`s). */
const senderIds = (campaign: CampaignObject): number[] =>
  (campaign.campaignAccountIds ?? []).map(Number).filter((id) => Number.isSafeInteger(id));

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
  const id = numericCampaignId(campaignId);

  // The campaign first: whether it takes leads now, and its senders, which each pair names.
  const campaign = await readCampaign(http, credentials, id);
  expectReady(campaign);
  const senders = senderIds(campaign);
  const response = await http({
    method: 'POST',
    path: '/campaign/AddLeadsToCampaignV2',
    headers: apiKeyHeader(credentials),
    body: {
      campaignId: id,
      // Spread over the campaign's senders in turn, as HeyReach spreads a list's leads.
      accountLeadPairs: sendable.map((lead, index) =>
        accountLeadPair(lead, senders.length > 0 ? senders[index % senders.length]! : null),
      ),
    },
  });
  // A 400 may be the campaign paused (or its senders removed) since it was read: read it again to say which.
  if (response.status === 400) expectReady(await readCampaign(http, credentials, id));
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

async function checkCredentials(
  http: ProviderHttp,
  credentials: ProviderCredentials,
): Promise<AcceptedCredentials> {
  const response = await http({
    method: 'GET',
    path: '/auth/CheckApiKey',
    headers: apiKeyHeader(credentials),
  });
  expectKeyAccepted(HEYREACH_FACTS.displayName, response);
  expectSuccess(response, 'the provider has no credential check here');
  // A HeyReach key acts for one workspace and carries its own limit.
  return { workspaceId: null };
}

async function listCampaigns(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  cursor: string | null,
): Promise<ProviderCampaignPage> {
  // The cursor is GetAll's own offset, as this method answered it.
  const offset = offsetCursor(cursor);
  const response = await http({
    method: 'POST',
    path: '/campaign/GetAll',
    headers: apiKeyHeader(credentials),
    body: { offset, limit: CAMPAIGN_PAGE },
  });
  expectKeyAccepted(HEYREACH_FACTS.displayName, response);
  expectSuccess(response, 'the provider has no campaign list here');
  const page = readBody(response, campaignPage, 'the campaign list');
  const seen = offset + page.items.length;
  return {
    campaigns: page.items.map((campaign) => ({
      id: idText(campaign.id),
      name: campaign.name ?? '',
      status: (campaign.status ?? '').toLowerCase(),
      acceptsLeads: notReadyReason(campaign) === null,
    })),
    // Without a total, a full page may have more behind it.
    next:
      page.items.length > 0 &&
      (page.totalCount === undefined ? page.items.length === CAMPAIGN_PAGE : seen < page.totalCount)
        ? String(seen)
        : null,
  };
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
  facts: HEYREACH_FACTS,
  checkCredentials,
  listCampaigns,
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
