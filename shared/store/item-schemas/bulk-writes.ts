import * as z from 'zod/mini';

// The item schemas of bulk-writes.ts: the source the item validators are compiled from
// (item-validators/bulk-writes.ts, written by `npm run build`). No function imports this module at run time.

/** What an interrupted bulk import needs to be finished the same way: the message ids it allocated. */
export const bulkImportItem = /* @__PURE__ */ (() => z.object({ messageIds: z.array(z.number()) }))();

export type BulkImportUnderWay = z.infer<typeof bulkImportItem>;
