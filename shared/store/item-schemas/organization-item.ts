import * as z from 'zod/mini';

// The organization item's schema: a module apart from the organizations store's other items, so the dashboard's
// session check reads organizations without their schemas.

const throttle = z.object({ rateLimit: z.number(), burstLimit: z.number() });

/** The organization item as read; settings never set are null. */
export const organizationItem = z.object({
  orgId: z.number(),
  name: z.string(),
  createdAt: z.string(),
  cooldownDays: z._default(z.nullable(z.number()), null),
  rateLimit: z._default(z.nullable(throttle), null),
});

export type OrganizationItem = z.infer<typeof organizationItem>;
