/**
 * How the counters every event moves are spread over items (docs/scaling.md).
 * A campaign's event counters live on its item and on CAMPAIGN_SHARDS shard
 * items; the organization's analytics counters on its analytics item and on
 * ANALYTICS_SHARDS shard items. A write that changes an assignment adds its
 * delta to one shard of each; reads add the base item and every shard up, in
 * one request, so which shard a delta went to never changes a count.
 *
 * Which shard: a process that writes counters continuously (the provider
 * events consumer) holds a writer slot (shared/domain/writer-slot-lease.ts)
 * and writes the shards of its slot, which no other process writes while it
 * holds it: its transactions never meet another writer's on a counter. Any
 * other write (a reply, an import, a consumer that found no free slot) takes
 * the shard its assignment id hashes to.
 *
 * The numbers: as many slots as the provider events consumer runs at most at
 * once (shared/definitions/queues.ts), and as many shards of each kind as
 * slots. 2,000 events/s on one campaign is 63 writes/s per campaign shard,
 * 5,000 events/s in one organization 157 per analytics shard, against the
 * budget of 300 a second (and DynamoDB's 1,000 write units a second per item).
 */

/** Writer slots: one per provider events consumer running at once. */
export const WRITER_SLOTS = 32;
/** Shards of one campaign's counters: one per writer slot. */
export const CAMPAIGN_SHARDS = 32;
/** Shards of the organization's analytics counters: one per writer slot. */
export const ANALYTICS_SHARDS = 32;

/**
 * The shard of `shards` an assignment's counter deltas go to: the writer
 * slot's, when the writer holds one, else the one its id hashes to (murmur3's
 * finalizer before the modulo: ids handed out in turn to campaigns in
 * rotation would otherwise fall on a few shards of each campaign).
 */
export function counterShard(assignmentId: number, shards: number, writerSlot: number | null = null): number {
  if (writerSlot !== null) return writerSlot % shards;
  let hash = ((assignmentId % 0x1_0000_0000) ^ Math.floor(assignmentId / 0x1_0000_0000)) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85eb_ca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2_ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % shards;
}
