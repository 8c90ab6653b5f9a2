import * as z from 'zod/mini';
import { lenient } from '#schemas/lenient.ts';
import { EMAIL_REQUIRED, expectSuccess, leadsWith, presentFields, readBody, sameEmail } from './responses.ts';
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
 * Instantly's API v2 (base https://api.instantly.ai/api/v2), the key as a
 * bearer token (https://developer.instantly.ai/api-reference).
 *
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

/** `POST /leads/list` takes up to 100 items per page. */
const LIST_PAGE = 100;

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
  // Instantly's lead has no title or LinkedIn field on import: both go as custom variables. The
  // snippet variables come last, so a variable of the same name is the one used.
  const customVariables = {
    ...presentFields({ job_title: lead.title, linkedin_url: lead.linkedinUrl }),
    ...lead.variables,
  };
  return {
    email: lead.email,
    ...presentFields({
      first_name: lead.firstName,
      last_name: lead.lastName,
      company_name: lead.companyName,
      website: lead.companyDomain,
    }),
    ...(Object.keys(customVariables).length > 0 ? { custom_variables: customVariables } : {}),
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
