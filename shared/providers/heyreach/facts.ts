import type { ProviderFacts } from '#providers/contract.ts';

/** What the service knows of HeyReach's public API, each figure with the page it comes from. */
export const HEYREACH_FACTS: ProviderFacts = {
  displayName: 'HeyReach',
  // https://documenter.getpostman.com/view/23808049/2sA2xb5F75
  defaultBaseUrl: 'https://api.heyreach.io/api/public',
  // https://documenter.getpostman.com/view/23808049/2sA2xb5F75
  auth: { scheme: 'header', name: 'X-API-KEY' },
  // AddLeadsToCampaignV2 (documenter.getpostman.com/view/23808049/2sA2xb5F75) states no maximum; 100
  // is kept as the batch, the largest page its other endpoints take.
  maxLeadsPerRequest: 100,
  // 300 requests a minute (same collection).
  rateLimit: { requests: 300, perMs: 60_000 },
  // POST /inbox/SendMessage answers in the LinkedIn conversation (same collection).
  replyThreadNamedBy: 'the conversation and LinkedIn account',
};
