import * as z from 'zod/mini';

// The item schemas of dashboard-sign-ins.ts: the source the item validators are compiled from
// (item-validators/dashboard-sign-ins.ts, written by `npm run build`). No function imports this module at run time.

export const signInItem = /* @__PURE__ */ (() =>
  z.object({
    codeVerifier: z.string(),
    nonce: z.string(),
    /** A path of this service to land on after sign-in. */
    returnTo: z.string(),
    expiresAt: z.number(),
  }))();

export type SignInItem = z.infer<typeof signInItem>;
