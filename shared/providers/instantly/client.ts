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
  type ProviderResponse,
} from '#providers/contract.ts';
import {
  EMAIL_REQUIRED,
  expectKeyAccepted,
  expectSuccess,
  leadsWith,
  presentFields,
  readBody,
  sameEmail,
} from '#providers/responses.ts';
import { lenient } from '#schemas/lenient.ts';
import { INSTANTLY_FACTS } from './facts.ts';

/**
 * Instantly's API v2 (base https://api.instantly.ai/api/v2), the key as a
 * bearer token (https://developer.instantly.ai/api-reference).
 *
 * Shapes as the reference shows them, and as Instantly's own SDK generates them from it
 * (github.com/Instantly-ai/instantly-starter-kit, js/sdk/src/generated/operations.ts and models.ts):
 *
 * - Credential check: `GET /workspaces/current`, answering the Workspace
 *   object, whose `id` is the workspace the key acts for
 *   (https://developer.instantly.ai/api-reference/workspace, object:
 *   https://developer.instantly.ai/api-reference/schemas/workspace). The rate
 *   limit is the workspace's, shared by all its keys
 *   (https://developer.instantly.ai/getting-started/rate-limit), hence the id.
 *   A bad key is 401 `{statusCode, error, message}`.
 * - Campaigns: `GET /campaigns?limit=&starting_after=` (limit ≤ 100), answering
 *   `{items: Campaign[], next_starting_after}`
 *   (https://developer.instantly.ai/api-reference/campaign, object:
 *   https://developer.instantly.ai/api-reference/schemas/campaign). `status` is a
 *   number: -99 account suspended, -1 accounts unhealthy, -2 bounce protect,
 *   0 draft, 1 active, 2 paused, 3 completed, 4 running subsequences
 *   (https://developer.instantly.ai/api-reference/schemas/account-campaign-mapping).
 * - Lead fields: `first_name`, `last_name`, `company_name`, `job_title`,
 *   `website`, `phone` and `personalization` are the lead's own fields on import;
 *   anything else is a custom variable (same add page, below; the Lead object:
 *   https://developer.instantly.ai/api-reference/schemas/lead).
 * - Add: `POST /leads/add`, up to 1000 leads to a campaign, answering
 *   `created_leads [{id, email, index}]` and counts of what it skipped
 *   (https://developer.instantly.ai/api-reference/lead/add-leads-in-bulk-to-a-campaign-or-list).
 *   `skip_if_in_campaign: true` skips a lead that is in any campaign of the
 *   workspace, this one included, so a lead is never added twice and a lead
 *   of another campaign is refused; leads only in a list are still added.
 * - Find: `POST /leads/list` filtered by `campaign` and `contacts` (emails)
 *   (https://developer.instantly.ai/api-reference/lead/list-leads).
 * - Stop: `DELETE /leads/{id}`: API v2 documents no pause of one lead, only
 *   its deletion (https://developer.instantly.ai/api-reference/lead/delete-a-lead).
 * - Reply: `POST /emails/reply` with `reply_to_uuid`, `eaccount`, `subject`
 *   and `body {text, html}`, answering the Email sent, whose `id` is kept
 *   (https://developer.instantly.ai/api-reference/email/reply-to-an-email).
 */

/** `POST /leads/list` and `GET /campaigns` take up to 100 items per page. */
const LIST_PAGE = 100;

/**
 * Instantly's campaign statuses as words. Only an active campaign sends to a lead added now: a
 * draft or paused one holds it until launched or resumed, a completed one (or one running only
 * its subsequences) does not start it again, and the negative states are Instantly stopping the
 * sending itself.
 */
const CAMPAIGN_STATUSES: Readonly<Record<number, string>> = {
  [-99]: 'account_suspended',
  [-2]: 'bounce_protect',
  [-1]: 'accounts_unhealthy',
  0: 'draft',
  1: 'active',
  2: 'paused',
  3: 'completed',
  4: 'running_subsequences',
};
const ACTIVE = 1;

/**
 * Instantly's own text fields of a lead on import (POST /leads/add `leads[]`): sent as such, never
 * as custom variables, where Instantly would keep them as a second, unused copy.
 */
const LEAD_FIELDS = [
  'first_name',
  'last_name',
  'company_name',
  'job_title',
  'website',
  'phone',
  'personalization',
] as const;
type LeadField = (typeof LEAD_FIELDS)[number];
const isLeadField = (name: string): name is LeadField => (LEAD_FIELDS as readonly string[]).includes(name);

const workspaceAnswer = z.object({ id: z.string() });

const campaignList = z.object({
  items: z.array(z.object({ id: z.string(), name: lenient(z.optional(z.string())), status: z.number() })),
  next_starting_after: lenient(z.nullish(z.string())),
});

const addAnswer = z.object({
  created_leads: lenient(
    z.optional(
      z.array(
        z.object({
          id: z.string(),
          email: lenient(z.optional(z.string())),
          index: lenient(z.optional(z.number())),
        }),
      ),
    ),
  ),
  in_blocklist: lenient(z.optional(z.number())),
  invalid_email_count: lenient(z.optional(z.number())),
});
type AddAnswer = z.infer<typeof addAnswer>;

const leadList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      email: lenient(z.optional(z.string())),
      campaign: lenient(z.nullish(z.string())),
    }),
  ),
});
type ListedLead = z.infer<typeof leadList>['items'][number];

const replyAnswer = z.object({ id: lenient(z.optional(z.string())) });

const bearer = (credentials: ProviderCredentials) => ({ Authorization: `Bearer ${credentials.apiKey}` });

function leadItem(lead: LeadToEnroll & { email: string }) {
  // A snippet variable named like one of Instantly's lead fields (`phone`, `job_title`, …) fills
  // that field, and wins over the contact's value, as the variable is the more specific of the two.
  const fields: Record<string, string | null> = {
    first_name: lead.firstName,
    last_name: lead.lastName,
    company_name: lead.companyName,
    job_title: lead.title,
    website: lead.companyDomain,
  };
  const customVariables: Record<string, string> = {};
  for (const [name, value] of Object.entries(lead.variables)) {
    if (isLeadField(name)) fields[name] = value;
    else customVariables[name] = value;
  }
  // Instantly has no LinkedIn field on a lead: the URL is a custom variable, unless a variable of that name says otherwise.
  const custom = { ...presentFields({ linkedin_url: lead.linkedinUrl }), ...customVariables };
  return {
    email: lead.email,
    ...presentFields(fields),
    ...(Object.keys(custom).length > 0 ? { custom_variables: custom } : {}),
  };
}

/** 401 or 403: Instantly refused the key itself, named so the caller can say which provider did. */
function expectInstantlyAnswer(response: ProviderResponse, notFound: string): void {
  expectKeyAccepted(INSTANTLY_FACTS.displayName, response);
  expectSuccess(response, notFound);
}

async function checkCredentials(
  http: ProviderHttp,
  credentials: ProviderCredentials,
): Promise<AcceptedCredentials> {
  const response = await http({ method: 'GET', path: '/workspaces/current', headers: bearer(credentials) });
  expectInstantlyAnswer(response, 'the provider has no workspace for this key');
  return { workspaceId: readBody(response, workspaceAnswer, 'the workspace read').id };
}

async function listCampaigns(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  cursor: string | null,
): Promise<ProviderCampaignPage> {
  const response = await http({
    method: 'GET',
    path: '/campaigns',
    headers: bearer(credentials),
    query: { limit: String(LIST_PAGE), ...(cursor === null ? {} : { starting_after: cursor }) },
  });
  expectInstantlyAnswer(response, 'the provider has no campaign list');
  const answer = readBody(response, campaignList, 'the campaign list');
  return {
    campaigns: answer.items.map((item) => ({
      id: item.id,
      name: item.name ?? '',
      status: CAMPAIGN_STATUSES[item.status] ?? `status_${item.status}`,
      acceptsLeads: item.status === ACTIVE,
    })),
    // A full last page still carries a cursor; the page after it is empty, and ends the list.
    next: answer.items.length > 0 ? (answer.next_starting_after ?? null) : null,
  };
}

/** The leads with these emails, in the campaign when one is given, else anywhere in the workspace. */
async function listLeads(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  emails: readonly string[],
  campaignId: string | null,
): Promise<ListedLead[]> {
  const found: ListedLead[] = [];
  for (let start = 0; start < emails.length; start += LIST_PAGE) {
    const contacts = emails.slice(start, start + LIST_PAGE);
    const response = await http({
      method: 'POST',
      path: '/leads/list',
      headers: bearer(credentials),
      body: { ...(campaignId === null ? {} : { campaign: campaignId }), contacts, limit: LIST_PAGE },
    });
    expectSuccess(response);
    found.push(...readBody(response, leadList, 'the lead list').items);
  }
  return found;
}

function refusalReason(inAnotherCampaign: boolean, answer: AddAnswer): string {
  if (inAnotherCampaign) return 'already in another campaign at the provider';
  const blocked = (answer.in_blocklist ?? 0) > 0;
  const invalid = (answer.invalid_email_count ?? 0) > 0;
  if (blocked && !invalid) return "on the provider's block list";
  if (invalid && !blocked) return 'the provider refused the email address as invalid';
  return 'the provider refused the email address (invalid or on its block list)';
}

async function enroll(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  leads: readonly LeadToEnroll[],
): Promise<LeadOutcome[]> {
  const { sendable, refused: outcomes } = leadsWith(leads, 'email', EMAIL_REQUIRED);
  if (sendable.length === 0) return outcomes;

  const response = await http({
    method: 'POST',
    path: '/leads/add',
    headers: bearer(credentials),
    body: {
      campaign_id: campaignId,
      skip_if_in_workspace: false,
      skip_if_in_campaign: true,
      skip_if_in_list: false,
      leads: sendable.map(leadItem),
    },
  });
  expectSuccess(response);
  const answer = readBody(response, addAnswer, 'the lead import');

  // `index` is the lead's position in the request; the email stands in when an answer lacks it.
  const created = answer.created_leads ?? [];
  const createdId = (lead: LeadToEnroll & { email: string }, position: number) =>
    created.find((entry) => entry.index === position)?.id ??
    created.find((entry) => entry.index === undefined && sameEmail(entry.email, lead.email))?.id;

  const skipped = sendable.filter((lead, position) => createdId(lead, position) === undefined);
  // A skipped lead may be in this campaign already (an earlier attempt reached Instantly): its id is
  // read back. Those in no campaign of ours are looked up once more to tell "in another campaign" apart.
  const inThisCampaign =
    skipped.length > 0
      ? await listLeads(
          http,
          credentials,
          skipped.map((lead) => lead.email),
          campaignId,
        )
      : [];
  const stillMissing = skipped.filter(
    (lead) => !inThisCampaign.some((found) => sameEmail(found.email, lead.email)),
  );
  const elsewhere =
    stillMissing.length > 0
      ? await listLeads(
          http,
          credentials,
          stillMissing.map((lead) => lead.email),
          null,
        )
      : [];

  sendable.forEach((lead, position) => {
    const leadId =
      createdId(lead, position) ?? inThisCampaign.find((found) => sameEmail(found.email, lead.email))?.id;
    if (leadId !== undefined) {
      outcomes.push({ ref: lead.ref, status: 'enrolled', leadId });
      return;
    }
    const inAnotherCampaign = elsewhere.some(
      (found) =>
        sameEmail(found.email, lead.email) &&
        typeof found.campaign === 'string' &&
        found.campaign !== campaignId,
    );
    outcomes.push({ ref: lead.ref, status: 'refused', reason: refusalReason(inAnotherCampaign, answer) });
  });
  return outcomes;
}

async function findEnrolled(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  campaignId: string,
  lead: LeadToEnroll,
): Promise<string | null> {
  if (!lead.email) return null;
  const found = await listLeads(http, credentials, [lead.email], campaignId);
  // The filter is the provider's; the match is checked here too, so a lead of another campaign never passes.
  const match = found.find(
    (item) => sameEmail(item.email, lead.email) && (item.campaign == null || item.campaign === campaignId),
  );
  return match?.id ?? null;
}

async function stop(
  http: ProviderHttp,
  credentials: ProviderCredentials,
  _campaignId: string,
  lead: EnrolledLead,
): Promise<void> {
  const response = await http({
    method: 'DELETE',
    path: `/leads/${encodeURIComponent(lead.leadId)}`,
    headers: bearer(credentials),
  });
  // Deleted already: the lead is stopped.
  if (response.status === 404) return;
  expectSuccess(response, 'the provider lead does not exist');
}

export const instantlyClient: ProviderClient = {
  provider: 'instantly',
  facts: INSTANTLY_FACTS,
  checkCredentials,
  listCampaigns,
  enroll,
  findEnrolled,
  stop,
  async reply(http, credentials, thread, message) {
    const replyToUuid = thread.replyThread.reply_to_uuid;
    const eaccount = thread.replyThread.eaccount;
    if (!replyToUuid || !eaccount) {
      throw new ProviderApiError('refused', 'the reply thread has no reply_to_uuid and eaccount to answer');
    }
    const response = await http({
      method: 'POST',
      path: '/emails/reply',
      headers: bearer(credentials),
      body: {
        reply_to_uuid: replyToUuid,
        eaccount,
        subject: message.subject,
        body: { text: message.text, html: message.html },
      },
    });
    // No campaign in the path: a 404 is the email replied to, gone.
    expectSuccess(response, 'the provider has no email to reply to');
    return { providerMessageId: readBody(response, replyAnswer, 'the reply').id ?? null };
  },
};
