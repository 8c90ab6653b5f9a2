import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys.ts';
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

/** Allocates one id. */
export async function allocateId(entity: IdEntity, table: TableContext = tableContext()): Promise<number> {
  const [id] = await allocateIds(entity, 1, table);
  return id!;
}

/**
 * Raises an entity's counter to at least `floor`, so ids kept from an import are
 * never handed out again. Safe under concurrency (conditional on the stored value).
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
