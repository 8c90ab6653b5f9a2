import * as z from 'zod/mini';

// The item schemas of dashboard-sessions.ts: what its store reads (and checks) items with.

export const sessionItem = z.object({
  subject: z.string(),
  email: z.string(),
  /** The organization picked after sign-in; null until one is. */
  orgId: z.nullable(z.number()),
  /** The token every form of the session carries (CSRF). */
  csrfToken: z.string(),
  createdAt: z.string(),
  /** Epoch seconds: the session ends here whatever its use (12 hours after sign-in). */
  endsAt: z.number(),
  /** Epoch seconds: idle expiry, moved on by use and never past `endsAt`; also the item's TTL. */
  expiresAt: z.number(),
});

export type SessionItem = z.infer<typeof sessionItem>;
