import * as z from 'zod/mini';
import { MEMBER_ROLES } from '#definitions/item-fields.ts';

// The item schemas of memberships.ts: the source the item validators are compiled from
// (item-validators/memberships.ts, written by `npm run build`). No function imports this module at run time.

export const membershipItem = /* @__PURE__ */ (() =>
  z.object({
    orgId: z.number(),
    /** The OpenID provider's subject of the person. */
    subject: z.string(),
    email: z.string(),
    role: z.enum(MEMBER_ROLES),
    addedAt: z.string(),
    addedBy: z.string(),
  }))();

export type MembershipItem = z.infer<typeof membershipItem>;
