import * as z from 'zod/mini';

// The item schemas of exclusions.ts: the source the item validators are compiled from
// (item-validators/exclusions.ts, written by `npm run build`). No function imports this module at run time.

export const shardItem = /* @__PURE__ */ (() =>
  z.object({ sk: z.string(), values: z.optional(z.set(z.string())) }))();

export const cooldownSetting = /* @__PURE__ */ (() =>
  z.object({ cooldownDays: z._default(z.nullable(z.number()), null) }))();
