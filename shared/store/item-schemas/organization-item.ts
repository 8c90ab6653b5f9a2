import * as z from 'zod/mini';

// The item schemas of organization-item.ts: the source the item validators are compiled from
// (item-validators/organization-item.ts, written by `npm run build`). No function imports this module at run time.

const throttle = /* @__PURE__ */ (() => z.object({ rateLimit: z.number(), burstLimit: z.number() }))();

/** The organization item as read; settings never set are null. */
export const organizationItem = /* @__PURE__ */ (() =>
  z.object({
    orgId: z.number(),
    name: z.string(),
    createdAt: z.string(),
    cooldownDays: z._default(z.nullable(z.number()), null),
    rateLimit: z._default(z.nullable(throttle), null),
  }))();

export type OrganizationItem = z.infer<typeof organizationItem>;
