import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { MAX_CONTACTS_PER_REQUEST } from '#definitions/raw-operations.ts';
import { DomainError } from '#domain/errors.ts';
import { lookupAccountEndpoint } from '#schemas/accounts.ts';
import {
  analyticsOverviewEndpoint,
  getCampaignEndpoint,
  listCampaignAccountsEndpoint,
  listCampaignContactsEndpoint,
  listCampaignsEndpoint,
} from '#schemas/campaigns.ts';
import { normalizeDomain } from '#schemas/domain-names.ts';
import { MAX_JOBS_PAGE, searchJobsEndpoint } from '#schemas/jobs.ts';
import { DEFAULT_PAGE_SIZE, dateTimeQuery, MAX_PAGE_SIZE } from '#schemas/params.ts';
import { checkEligibilityEndpoint } from '#schemas/raw.ts';
import { CONTACT_STATUS_FILTERS } from '#schemas/resources.ts';
import { type CallToolResult, defineTool, type McpTool } from './protocol.ts';

/**
 * The MCP server's read-only research tools over one organization's data. Each
 * tool is an adapter: it turns its arguments into the input of the use case
 * its REST endpoint calls, runs it, and shapes the result with the same
 * response schema, so both answer alike. The tools are the same for every
 * organization: a call runs with the caller's (`orgId`, the context the
 * protocol hands it). The server (./server.ts) loads this module on the first
 * `tools/call`; the protocol itself is ./protocol.ts.
 */

/**
 * An async function of a module loaded on its first call. A tool loads its
 * use case when it is called: a request runs one tool at most (`initialize`
 * and `tools/list` none), so a cold start does not read the store and domain
 * code of every tool.
 */
function loadedOnCall<F extends (...args: never[]) => Promise<unknown>>(load: () => Promise<F>): F {
  return (async (...args: Parameters<F>) => (await load())(...args)) as F;
}

const checkEligibility = loadedOnCall(
  async () => (await import('#use-cases/check-eligibility.ts')).checkEligibility,
);
const getAnalyticsOverview = loadedOnCall(
  async () => (await import('#use-cases/get-analytics-overview.ts')).getAnalyticsOverview,
);
const getCampaign = loadedOnCall(async () => (await import('#use-cases/get-campaign.ts')).getCampaign);
const listCampaignAccounts = loadedOnCall(
  async () => (await import('#use-cases/list-campaign-accounts.ts')).listCampaignAccounts,
);
const listCampaignContacts = loadedOnCall(
  async () => (await import('#use-cases/list-campaign-contacts.ts')).listCampaignContacts,
);
const listCampaigns = loadedOnCall(async () => (await import('#use-cases/list-campaigns.ts')).listCampaigns);
const lookupAccount = loadedOnCall(async () => (await import('#use-cases/lookup-account.ts')).lookupAccount);
const searchJobs = loadedOnCall(async () => (await import('#use-cases/search-jobs.ts')).searchJobs);

/** The caller's organization: what every tool call runs with. */
export type OrgId = number;

/**
 * A tool result: the use case's resource shaped by the endpoint's response schema (the REST
 * response body) as structured content, plus a one-line summary of it.
 */
function result<S extends z.core.$ZodType<Record<string, unknown>>>(
  schema: S,
  resource: z.input<S>,
  summary: (body: z.output<S>) => string,
): CallToolResult {
  const body = z.parse(schema, resource);
  return { structuredContent: body, content: [{ type: 'text', text: summary(body) }] };
}

/** Arguments a tool's schema cannot refuse on its own (neither domain nor id given, an unusable domain). */
class ToolArgumentInvalid extends Error {}

/**
 * A domain error as this edge answers it: a tool error (`isError`) the
 * assistant reads, whatever its kind, naming the argument at fault by its
 * name alone (a tool has arguments, not body fields or query parameters).
 */
function toolErrorOf(error: DomainError | ToolArgumentInvalid): CallToolResult {
  const field = error instanceof DomainError ? error.field : undefined;
  const text = field ? `Invalid ${field.name}: ${error.message}` : error.message;
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Runs a tool body, turning a refusal (not found, bad input, a conflict) into a readable tool error. */
async function tool(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError || error instanceof ToolArgumentInvalid) return toolErrorOf(error);
    throw error;
  }
}

const domainOf = (value: string): string => {
  const domain = normalizeDomain(value);
  if (!domain) throw new ToolArgumentInvalid(`${JSON.stringify(value)} is not a usable domain`);
  return domain;
};

const readOnly = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** The tools, in the order `tools/list` gives them. */
function catalogue(): McpTool<OrgId>[] {
  const id = z.int().check(z.positive(), z.lte(Number.MAX_SAFE_INTEGER));
  const campaignId = id.check(z.describe('Campaign (ICP) id'));
  return [
    defineTool({
      name: 'lookup_account',
      title: 'Look up an account',
      description:
        'One account (company) by domain and/or id, with its scored signals; with campaign_id only that campaign’s signals.',
      inputSchema: z.object({
        domain: z.optional(z.string().check(z.maxLength(2048))).check(z.describe('Company domain or URL')),
        id: z.optional(id).check(z.describe('Account id')),
        campaign_id: z.optional(campaignId),
      }),
      outputSchema: lookupAccountEndpoint.response,
      annotations: readOnly,
      run: (input, orgId: OrgId) =>
        tool(async () => {
          if (input.domain === undefined && input.id === undefined)
            throw new ToolArgumentInvalid('Give domain or id');
          const account = await lookupAccount({
            orgId,
            query: {
              domain: input.domain === undefined ? undefined : domainOf(input.domain),
              id: input.id,
              icpId: input.campaign_id,
            },
          });
          return result(
            lookupAccountEndpoint.response,
            account,
            (body) =>
              `Account ${body.id} (${body.domain}), score ${body.score}, ${body.signals.length} signals`,
          );
        }),
    }),
    defineTool({
      name: 'list_campaigns',
      title: 'List campaigns',
      description: 'Every campaign (ICP) with providers, sequences, steps and outreach stats.',
      inputSchema: z.object({}),
      outputSchema: listCampaignsEndpoint.response,
      annotations: readOnly,
      run: (_input, orgId: OrgId) =>
        tool(async () =>
          result(
            listCampaignsEndpoint.response,
            await listCampaigns({ orgId }),
            (body) =>
              `${body.campaigns.length} campaigns: ${body.campaigns.map((campaign) => `${campaign.id} ${campaign.icp_name}`).join('; ')}`,
          ),
        ),
    }),
    defineTool({
      name: 'get_campaign',
      title: 'Get a campaign',
      description: 'One campaign with stats and current contact counts per status.',
      inputSchema: z.object({ campaign_id: campaignId }),
      outputSchema: getCampaignEndpoint.response,
      annotations: readOnly,
      run: (input, orgId: OrgId) =>
        tool(async () =>
          result(
            getCampaignEndpoint.response,
            await getCampaign({
              orgId,
              path: { id: input.campaign_id },
            }),
            (detail) =>
              `Campaign ${detail.id} ${detail.icp_name}: ${detail.stats.sent} sent, ${detail.stats.opened} opened, ${detail.contacts.replied} replied`,
          ),
        ),
    }),
    defineTool({
      name: 'list_campaign_accounts',
      title: 'List a campaign’s accounts',
      description: 'Qualified accounts of a campaign, highest score first.',
      inputSchema: z.object({
        campaign_id: campaignId,
        from: z._default(z.int().check(z.gte(0)), 0),
        take: z._default(z.int().check(z.gte(1), z.lte(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
      }),
      outputSchema: listCampaignAccountsEndpoint.response,
      annotations: readOnly,
      run: (input, orgId: OrgId) =>
        tool(async () =>
          result(
            listCampaignAccountsEndpoint.response,
            await listCampaignAccounts({
              orgId,
              path: { id: input.campaign_id },
              query: { from: input.from, take: input.take },
            }),
            (body) => `${body.accounts.length} accounts from position ${input.from}`,
          ),
        ),
    }),
    defineTool({
      name: 'list_campaign_contacts',
      title: 'List a campaign’s contacts',
      description: 'Contacts (assignments) of a campaign, newest first, optionally of one status.',
      inputSchema: z.object({
        campaign_id: campaignId,
        skip: z._default(z.int().check(z.gte(0)), 0),
        take: z._default(z.int().check(z.gte(1), z.lte(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
        status: z.optional(z.enum(CONTACT_STATUS_FILTERS)),
      }),
      outputSchema: listCampaignContactsEndpoint.response,
      annotations: readOnly,
      run: (input, orgId: OrgId) =>
        tool(async () =>
          result(
            listCampaignContactsEndpoint.response,
            await listCampaignContacts({
              orgId,
              path: { id: input.campaign_id },
              query: { skip: input.skip, take: input.take, status: input.status },
            }),
            (body) => `${body.data.length} of ${body.total} contacts`,
          ),
        ),
    }),
    defineTool({
      name: 'search_jobs',
      title: 'Search job openings',
      description:
        'Job openings of a company domain, newest first; pass `next` back as cursor (0 means no more pages).',
      inputSchema: z.object({
        domain: z.string().check(z.maxLength(2048)),
        since: z
          .optional(z.iso.datetime({ offset: true }))
          .check(z.describe('Only jobs first seen after this time')),
        cursor: z.optional(id),
        take: z._default(z.int().check(z.gte(1), z.lte(MAX_JOBS_PAGE)), 100),
      }),
      outputSchema: searchJobsEndpoint.response,
      annotations: readOnly,
      run: (input, orgId: OrgId) =>
        tool(async () =>
          result(
            searchJobsEndpoint.response,
            await searchJobs({
              orgId,
              path: { domain: domainOf(input.domain) },
              query: {
                take: input.take,
                cursor: input.cursor,
                since: input.since === undefined ? undefined : z.parse(dateTimeQuery, input.since),
              },
            }),
            (body) =>
              `${body.jobs.length} jobs at ${body.domain}${body.next ? `; next cursor ${body.next}` : '; last page'}`,
          ),
        ),
    }),
    defineTool({
      name: 'check_eligibility',
      title: 'Check eligibility (dry run)',
      description: `Whether contacts (at most ${MAX_CONTACTS_PER_REQUEST} emails per call) could be pushed into a campaign’s sequence, with the reasons they could not. Writes nothing.`,
      // The REST dry run's body, so both take the same emails, as many of them, and the same flags.
      inputSchema: z.object({ campaign_id: campaignId, ...checkEligibilityEndpoint.body.shape }),
      outputSchema: checkEligibilityEndpoint.response,
      annotations: readOnly,
      run: (input, orgId: OrgId) =>
        tool(async () => {
          const { campaign_id, ...body } = input;
          return result(
            checkEligibilityEndpoint.response,
            await checkEligibility({
              orgId,
              path: { id: campaign_id },
              body,
            }),
            (checked) => `${checked.summary.eligible} of ${checked.summary.total} eligible`,
          );
        }),
    }),
    defineTool({
      name: 'get_analytics_overview',
      title: 'Analytics overview',
      description:
        'Organization-wide counts: campaigns, contacts sent, opened, replied, scheduled, bounces, unsubscribes.',
      inputSchema: z.object({}),
      outputSchema: analyticsOverviewEndpoint.response,
      annotations: readOnly,
      run: (_input, orgId: OrgId) =>
        tool(async () =>
          result(
            analyticsOverviewEndpoint.response,
            await getAnalyticsOverview({ orgId }),
            (body) =>
              `${body.total_campaigns} campaigns, ${body.total_contacts_sent} contacts sent, ${body.total_contacts_replied} replied`,
          ),
        ),
    }),
  ];
}

let tools: McpTool<OrgId>[] | undefined;

/**
 * The tools, built on first use and then kept for the life of the instance
 * (they are the same for every organization; a call runs with the caller's).
 */
export function mcpTools(): readonly McpTool<OrgId>[] {
  tools ??= catalogue();
  return tools;
}
