import * as z from 'zod/mini';
import { ORGANIZATION_COUNTERS } from '#definitions/item-fields.ts';
import { counterFields } from './counter-fields.ts';

// The item schemas of organizations.ts: what its store reads (and checks) items with.

/** The analytics item as read; counters never written are 0. */
export const analyticsItem = z.object({
  ...counterFields(['totalCampaigns']),
  ...counterFields(ORGANIZATION_COUNTERS),
});

export type AnalyticsItem = z.infer<typeof analyticsItem>;

export const demoSeedItem = z.object({ orgId: z.number() });
