import * as z from 'zod/mini';
import { MEMBER_ROLES } from '#definitions/item-fields.ts';

// The item schemas of memberships.ts: what its store reads (and checks) items with.

export const membershipItem = z.object({
  orgId: z.number(),
  /** The OpenID provider's subject of the person. */
  subject: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  addedAt: z.string(),
  addedBy: z.string(),
});

export type MembershipItem = z.infer<typeof membershipItem>;
