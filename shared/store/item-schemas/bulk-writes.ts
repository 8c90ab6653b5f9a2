import * as z from 'zod/mini';

// The item schemas of bulk-writes.ts: what its store reads (and checks) items with.

/** What an interrupted bulk import needs to be finished the same way: the message ids it allocated. */
export const bulkImportItem = z.object({ messageIds: z.array(z.number()) });

export type BulkImportUnderWay = z.infer<typeof bulkImportItem>;
