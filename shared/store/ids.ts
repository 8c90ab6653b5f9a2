import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type TableContext, tableContext } from './table-context.ts';

/** Entity types that get numeric ids; each has its own sequence. */
export type IdEntity =
  | 'organization'
  | 'apiKey'
  | 'campaign'
  | 'sequence'
  | 'account'
  | 'contact'
  | 'assignment'
  | 'message'
  | 'job'
  | 'webhook'
  | 'delivery'
  | 'providerConnection';

/**
 * Allocates `count` consecutive ids for an entity type with one atomic counter
 * update, so concurrent callers never receive the same id. Returns the ids in
 * ascending order.
 */
export async function allocateIds(
  entity: IdEntity,
  count = 1,
  table: TableContext = tableContext(),
): Promise<number[]> {
  if (count < 1) return [];
  const result = await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.counter(entity),
      UpdateExpression: 'ADD #last :count',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(result.Attributes?.last);
  if (!Number.isSafeInteger(last)) throw new Error(`Id sequence for ${entity} is exhausted`);
  return Array.from({ length: count }, (_, index) => last - count + 1 + index);
}

/**
 * Ids a process takes a block at a time, for the entities allocated one by
 * one on the event path: a message id for every message an event or a reply
 * brings would otherwise write one item shared by every organization on every
 * such event (docs/scaling.md). A block is handed out in order; the ids of a
 * block a process ends without using are never used (ids have gaps, never
 * duplicates).
 */
const LEASE_SIZES: Partial<Record<IdEntity, number>> = { message: 100 };

interface Lease {
  next: number;
  last: number;
}
/** The block each process holds, per table and entity; a pending block is shared by the callers waiting on it. */
const leases = new Map<string, Promise<Lease>>();

async function leasedId(entity: IdEntity, size: number, table: TableContext): Promise<number> {
  const key = `${table.name}\u0000${entity}`;
  for (;;) {
    let lease = leases.get(key);
    if (!lease) {
      lease = allocateIds(entity, size, table).then((ids) => ({ next: ids[0]!, last: ids[ids.length - 1]! }));
      leases.set(key, lease);
    }
    let block: Lease;
    try {
      block = await lease;
    } catch (error) {
      if (leases.get(key) === lease) leases.delete(key);
      throw error;
    }
    if (block.next <= block.last) return block.next++;
    if (leases.get(key) === lease) leases.delete(key);
  }
}

/**
 * Allocates one id: from the process's block for the entities leased in
 * blocks (ids unique and increasing within a process, not across processes),
 * else with its own counter update.
 */
export async function allocateId(entity: IdEntity, table: TableContext = tableContext()): Promise<number> {
  const size = LEASE_SIZES[entity];
  if (size !== undefined) return leasedId(entity, size, table);
  const [id] = await allocateIds(entity, 1, table);
  return id!;
}

/**
 * Raises an entity's counter to at least `floor`, so ids kept from an import are
 * never handed out again. Safe under concurrency (conditional on the stored value).
 * A block a process already holds (`allocateId`) is not taken back: should an
 * imported message carry an id of it, the message's conditional put refuses
 * the later one, never overwrites.
 */
export async function reserveIdsUpTo(
  entity: IdEntity,
  floor: number,
  table: TableContext = tableContext(),
): Promise<void> {
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.counter(entity),
        UpdateExpression: 'SET #last = :floor',
        ConditionExpression: 'attribute_not_exists(#last) OR #last < :floor',
        ExpressionAttributeNames: { '#last': 'last' },
        ExpressionAttributeValues: { ':floor': floor },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
