import * as z from 'zod/mini';
import { provider } from '#schemas/import.ts';

// The item schemas of sequence-links.ts: the source the item validators are compiled from
// (item-validators/sequence-links.ts, written by `npm run build`). No function imports this module at run time.

export const sequenceLinkItem = /* @__PURE__ */ (() =>
  z.object({
    orgId: z.number(),
    provider,
    externalId: z.string(),
    campaignId: z.number(),
    sequenceId: z.number(),
    connectionId: z._default(z.nullable(z.number()), null),
  }))();

export type SequenceLinkRecord = z.infer<typeof sequenceLinkItem>;
