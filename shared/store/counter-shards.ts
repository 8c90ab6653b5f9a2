/**
 * How the counters every event moves are spread over items (docs/scaling.md).
 * A campaign's event counters live on its item and on CAMPAIGN_SHARDS shard
 * items; the organization's analytics counters on its analytics item and on
 * ANALYTICS_SHARDS shard items. A write that changes an assignment adds its
 * delta to the shard its assignment id hashes to, so one assignment's writes
 * always meet on the same shards and different assignments' spread over all
 * of them; reads add the base item and every shard up, in one request.
 *
 * The numbers are sized for issue 22's budget with room for an uneven spread:
 * 2,000 events/s on one campaign is 125 writes/s per campaign shard, 5,000
 * events/s in one organization 157 per analytics shard, against 300 a second
 * (and DynamoDB's 1,000 write units a second per item and per partition).
 */

/** Shards of one campaign's counters: 2,000 events/s ÷ 16 = 125 writes/s each. */
export const CAMPAIGN_SHARDS = 16;
/** Shards of the organization's analytics counters: 5,000 events/s ÷ 32 ≈ 157 writes/s each. */
export const ANALYTICS_SHARDS = 32;

/**
 * The shard an assignment's counter deltas go to. Ids are hashed (murmur3's
 * finalizer) before the modulo: ids handed out in turn to campaigns in
 * rotation would otherwise fall on a few shards of each campaign.
 */
export function shardOf(assignmentId: number, shards: number): number {
  let hash = ((assignmentId % 0x1_0000_0000) ^ Math.floor(assignmentId / 0x1_0000_0000)) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85eb_ca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2_ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % shards;
}
