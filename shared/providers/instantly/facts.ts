import type { ProviderFacts } from '#providers/contract.ts';

/** What the service knows of Instantly's public API, each figure with the page it comes from. */
export const INSTANTLY_FACTS: ProviderFacts = {
  displayName: 'Instantly',
  // https://developer.instantly.ai/api-reference
  defaultBaseUrl: 'https://api.instantly.ai/api/v2',
  // https://developer.instantly.ai/api-reference
  auth: { scheme: 'bearer', name: 'Authorization' },
  // POST /api/v2/leads/add takes 1 to 1000 leads
  // (developer.instantly.ai/api-reference/lead/add-leads-in-bulk-to-a-campaign-or-list).
  maxLeadsPerRequest: 1_000,
  // "No more than 100 requests per second, no more than 6,000 per minute", per workspace
  // (developer.instantly.ai/getting-started/rate-limit): 100 a second sustained is the 6,000 a minute.
  rateLimit: { requests: 100, perMs: 1_000 },
  // POST /api/v2/emails/reply (developer.instantly.ai/api-reference/email/reply-to-an-email).
  replyThreadNamedBy: "the email's id and sending account",
};
