/** At most this many accounts in one New Opportunities event (#schemas/webhooks.ts). */
export const MAX_OPPORTUNITIES_PER_EVENT = 100;
