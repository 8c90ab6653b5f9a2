import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type TableContext, tableContext } from './table-context.ts';

/** One item of a TransactWriteItems call. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit of items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * Thrown when a transaction was cancelled; `failedConditions` holds the
 * indexes of the items whose condition failed, so callers can tell a
 * duplicate from a lost race.
 */
export class TransactionConflictError extends Error {
  constructor(
    readonly failedConditions: number[],
    readonly conflicted: boolean,
  ) {
    super(`Transaction cancelled (conditions failed at ${failedConditions.join(', ') || 'none'})`);
  }
}

/** Runs a transaction, translating a cancellation into TransactionConflictError at this boundary. */
export async function transact(items: TransactItem[], table: TableContext = tableContext()): Promise<void> {
  if (items.length === 0) return;
  try {
    await table.client.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.flatMap((reason, index) =>
        reason.Code === 'ConditionalCheckFailed' ? [index] : [],
      );
      const conflicted = reasons.some((reason) => reason.Code === 'TransactionConflict');
      throw new TransactionConflictError(failed, conflicted);
    }
    throw error;
  }
}

/**
 * An Update that adds each delta to a numeric attribute (creating it at 0).
 * Returns null when there is nothing to add and no condition to check.
 */
export function addCounters(
  key: Record<string, string>,
  deltas: Partial<Record<string, number>>,
  options: { mustExist?: boolean; set?: Record<string, unknown> } = {},
  table: TableContext = tableContext(),
): TransactItem | null {
  const entries = Object.entries(deltas).filter(([, value]) => value !== undefined && value !== 0) as [
    string,
    number,
  ][];
  const setEntries = Object.entries(options.set ?? {});
  if (entries.length === 0 && setEntries.length === 0 && !options.mustExist) return null;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  if (entries.length > 0) {
    clauses.push(
      `ADD ${entries
        .map(([name, value], index) => {
          names[`#c${index}`] = name;
          values[`:c${index}`] = value;
          return `#c${index} :c${index}`;
        })
        .join(', ')}`,
    );
  }
  if (setEntries.length > 0) {
    clauses.push(
      `SET ${setEntries
        .map(([name, value], index) => {
          names[`#s${index}`] = name;
          values[`:s${index}`] = value;
          return `#s${index} = :s${index}`;
        })
        .join(', ')}`,
    );
  }
  if (clauses.length === 0) {
    // Nothing changes; the item only has to exist.
    return {
      ConditionCheck: { TableName: table.name, Key: key, ConditionExpression: 'attribute_exists(pk)' },
    };
  }
  return {
    Update: {
      TableName: table.name,
      Key: key,
      UpdateExpression: clauses.join(' '),
      ConditionExpression: options.mustExist ? 'attribute_exists(pk)' : undefined,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: Object.keys(values).length > 0 ? values : undefined,
    },
  };
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping result order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  });
  await Promise.all(workers);
  return results;
}
