import type { ProviderFacts } from '#providers/contract.ts';

/** What the service knows of lemlist's public API, each figure with the page it comes from. */
export const LEMLIST_FACTS: ProviderFacts = {
  displayName: 'lemlist',
  // https://developer.lemlist.com/api-reference/getting-started/authentication
  defaultBaseUrl: 'https://api.lemlist.com/api',
  // https://developer.lemlist.com/api-reference/getting-started/authentication
  auth: { scheme: 'basic', name: 'Authorization' },
  // POST /campaigns/{campaignId}/leads/{email} adds one lead.
  maxLeadsPerRequest: 1,
  // developer.lemlist.com/api-reference/getting-started/rate-limits: 20 requests per 2 seconds per key.
  rateLimit: { requests: 20, perMs: 2_000 },
  // No documented way to answer in the thread of a campaign's message (client.ts).
  replyThreadNamedBy: null,
};
