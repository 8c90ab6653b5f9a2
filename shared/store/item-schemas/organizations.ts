import * as z from 'zod/mini';
import { ORGANIZATION_COUNTERS } from '#definitions/item-fields.ts';
import { counterFields } from './counter-fields.ts';

// The item schemas of organizations.ts: the source the item validators are compiled from
// (item-validators/organizations.ts, written by `npm run build`). No function imports this module at run time.

/** The analytics item as read; counters never written are 0. */
export const analyticsItem = /* @__PURE__ */ (() =>
  z.object({
    ...counterFields(['totalCampaigns']),
    ...counterFields(ORGANIZATION_COUNTERS),
  }))();

export type AnalyticsItem = z.infer<typeof analyticsItem>;

export const demoSeedItem = /* @__PURE__ */ (() => z.object({ orgId: z.number() }))();
