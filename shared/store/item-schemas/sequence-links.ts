import * as z from 'zod/mini';
import { provider } from '#schemas/import.ts';

// The item schemas of sequence-links.ts: what its store reads (and checks) items with.

export const sequenceLinkItem = z.object({
  orgId: z.number(),
  provider,
  externalId: z.string(),
  campaignId: z.number(),
  sequenceId: z.number(),
  connectionId: z._default(z.nullable(z.number()), null),
});

export type SequenceLinkRecord = z.infer<typeof sequenceLinkItem>;
