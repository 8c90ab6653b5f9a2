import * as z from 'zod/mini';
import { ORGANIZATION_COUNTERS, type OrganizationCounter } from '#definitions/item-fields.ts';

// The item schemas of organizations.ts: the source the item validators are compiled from
// (item-validators/organizations.ts, written by `npm run build`). No function imports this module at run time.

const counter = /* @__PURE__ */ (() => z._default(z.number(), 0))();

/** The analytics item as read; counters never written are 0. */
export const analyticsItem = /* @__PURE__ */ (() =>
  z.object({
    totalCampaigns: counter,
    ...(Object.fromEntries(ORGANIZATION_COUNTERS.map((name) => [name, counter])) as Record<
      OrganizationCounter,
      typeof counter
    >),
  }))();

export type AnalyticsItem = z.infer<typeof analyticsItem>;

export const demoSeedItem = /* @__PURE__ */ (() => z.object({ orgId: z.number() }))();
