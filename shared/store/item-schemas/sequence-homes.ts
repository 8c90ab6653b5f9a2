import * as z from 'zod/mini';

// The item schemas of sequence-homes.ts: what its store reads (and checks) items with.

export const sequenceHomeItem = z.object({
  orgId: z.number(),
  sequenceId: z.number(),
  campaignId: z.number(),
});

export type SequenceHomeRecord = z.infer<typeof sequenceHomeItem>;
