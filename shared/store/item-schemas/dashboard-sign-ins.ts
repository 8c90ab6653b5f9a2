import * as z from 'zod/mini';

// The item schemas of dashboard-sign-ins.ts: what its store reads (and checks) items with.

export const signInItem = z.object({
  codeVerifier: z.string(),
  nonce: z.string(),
  /** A path of this service to land on after sign-in. */
  returnTo: z.string(),
  expiresAt: z.number(),
});

export type SignInItem = z.infer<typeof signInItem>;
