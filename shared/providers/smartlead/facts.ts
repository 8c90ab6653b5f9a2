import type { ProviderFacts } from '#providers/contract.ts';

/** What the service knows of Smartlead's public API, each figure with the page it comes from. */
export const SMARTLEAD_FACTS: ProviderFacts = {
  displayName: 'Smartlead',
  // https://api.smartlead.ai/authentication
  defaultBaseUrl: 'https://server.smartlead.ai/api/v1',
  // https://api.smartlead.ai/authentication
  auth: { scheme: 'query', name: 'api_key' },
  // "Max 400 leads per request" (api.smartlead.ai/api-reference/leads/add-to-campaign, and the guide
  // api.smartlead.ai/guides/lead-management: "up to 400 leads per request"); the older help-center
  // pages' 100 and 350 are superseded.
  maxLeadsPerRequest: 400,
  // 60 a minute per key (api.smartlead.ai/reference/rate-limits, and the Standard plan of
  // api.smartlead.ai/guides/rate-limits); the help center's older "10 every 2 seconds" is that guide's burst.
  rateLimit: { requests: 60, perMs: 60_000 },
  // POST /campaigns/{campaign_id}/reply-email-thread (api.smartlead.ai/api-reference/campaigns/reply-email-thread).
  replyThreadNamedBy: "the sent email's stats_id",
};
