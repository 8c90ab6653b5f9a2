/**
 * The providers, spelled as shared/schemas/import.ts's `PROVIDERS` spells them: definitions sit below
 * schemas and may not import them, and a provider missing here fails to compile where
 * `PROVIDER_APIS[provider]` is read with the schemas' `Provider` type.
 */
type Provider = 'smartlead' | 'instantly' | 'lemlist' | 'heyreach';

/**
 * What the service knows of each provider's public API, from its documentation
 * (docs/providers.md cites the pages): where it is, how many leads one add
 * request takes, and the documented rate limit. The outbound clients
 * (shared/platform/provider-apis/) keep below the limit and batch within the
 * size; the local emulators (infra/local/provider-emulators/) enforce both, so
 * the same figures are the contract on both sides.
 */
export interface ProviderApiFacts {
  /** The public API's base URL: a connection without `base_url` uses it. */
  defaultBaseUrl: string;
  /** Leads one add request may carry (1 where the API adds one lead per request). */
  maxLeadsPerRequest: number;
  /** The documented limit: at most `requests` per `perMs` milliseconds per API key. */
  rateLimit: { requests: number; perMs: number };
  /** Whether the API can answer a lead in its own thread (docs/providers.md). */
  repliesInThread: boolean;
}

export const PROVIDER_APIS: Record<Provider, ProviderApiFacts> = {
  smartlead: {
    defaultBaseUrl: 'https://server.smartlead.ai/api/v1',
    // "Max 400 leads per request" (api.smartlead.ai/api-reference/leads/add-to-campaign, and the guide
    // api.smartlead.ai/guides/lead-management: "up to 400 leads per request"); the older help-center
    // pages' 100 and 350 are superseded.
    maxLeadsPerRequest: 400,
    // 60 a minute per key (api.smartlead.ai/reference/rate-limits, and the Standard plan of
    // api.smartlead.ai/guides/rate-limits); the help center's older "10 every 2 seconds" is that guide's burst.
    rateLimit: { requests: 60, perMs: 60_000 },
    repliesInThread: true,
  },
  instantly: {
    defaultBaseUrl: 'https://api.instantly.ai/api/v2',
    // POST /api/v2/leads/add takes 1 to 1000 leads
    // (developer.instantly.ai/api-reference/lead/add-leads-in-bulk-to-a-campaign-or-list).
    maxLeadsPerRequest: 1_000,
    // "No more than 100 requests per second, no more than 6,000 per minute", per workspace
    // (developer.instantly.ai/getting-started/rate-limit): 100 a second sustained is the 6,000 a minute.
    rateLimit: { requests: 100, perMs: 1_000 },
    repliesInThread: true,
  },
  lemlist: {
    defaultBaseUrl: 'https://api.lemlist.com/api',
    // POST /campaigns/{campaignId}/leads/{email} adds one lead.
    maxLeadsPerRequest: 1,
    // developer.lemlist.com/api-reference/getting-started/rate-limits: 20 requests per 2 seconds per key.
    rateLimit: { requests: 20, perMs: 2_000 },
    // No documented way to answer in the thread of a campaign's message (shared/platform/provider-apis/lemlist.ts).
    repliesInThread: false,
  },
  heyreach: {
    defaultBaseUrl: 'https://api.heyreach.io/api/public',
    // AddLeadsToCampaignV2 (documenter.getpostman.com/view/23808049/2sA2xb5F75) states no maximum; 100
    // is kept as the batch, the largest page its other endpoints take.
    maxLeadsPerRequest: 100,
    // 300 requests a minute (same collection).
    rateLimit: { requests: 300, perMs: 60_000 },
    repliesInThread: true,
  },
};
