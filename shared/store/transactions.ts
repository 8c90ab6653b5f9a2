import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type TableContext, tableContext } from './table-context.ts';

/** One item of a TransactWriteItems call, as DynamoDB takes it. */
type TransactWriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One item of a transaction. A conditional item carries the name of what its
 * condition failing means (`condition`: 'assignment-id-taken',
 * 'connection-limit', …), set by the store method that builds it, and, where
 * a caller writes many alike in one transaction, the identity the item's key
 * stands for (`subject`: an assignment's or contact's id, …), so a caller
 * learns which of its items failed without counting positions.
 */
export type TransactItem = TransactWriteItem & { condition?: string; subject?: number | string };

/** A conditional item of a cancelled transaction whose condition failed. */
export interface FailedCondition {
  /** The item's condition name; 'unnamed' for an item built without one. */
  condition: string;
  subject?: number | string;
}

/** DynamoDB's limit of items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * Thrown when a transaction was cancelled. `failed` names the conditions that
 * failed (none: the transaction lost a race to concurrent ones on its items),
 * `failedItems` lists each failed item with its subject (`failedSubjects`), so callers tell a
 * duplicate from a lost race, and which of a batch's items failed, by name.
 */
export class TransactionConflictError extends Error {
  readonly failed: ReadonlySet<string>;

  constructor(
    readonly failedItems: readonly FailedCondition[],
    readonly conflicted: boolean,
  ) {
    super(
      `Transaction cancelled (failed: ${failedItems.map((item) => item.condition).join(', ') || 'none'})`,
    );
    this.failed = new Set(failedItems.map((item) => item.condition));
  }
}

/**
 * The subjects of a cancelled transaction's failed items of condition `name`.
 * A function rather than a method of the error, so a bundle that never asks
 * does not carry it.
 */
export function failedSubjects(
  error: TransactionConflictError,
  name: string,
): Set<FailedCondition['subject']> {
  return new Set(error.failedItems.filter((item) => item.condition === name).map((item) => item.subject));
}

/**
 * Runs a transaction, translating a cancellation into TransactionConflictError
 * at this boundary: DynamoDB gives one reason per item, in the items' order, so
 * the failed conditions are named from the items sent.
 */
export async function transact(items: TransactItem[], table: TableContext = tableContext()): Promise<void> {
  if (items.length === 0) return;
  try {
    await table.client.send(
      // The names stay here: DynamoDB takes only the operation of each item.
      new TransactWriteCommand({ TransactItems: items.map(({ condition, subject, ...item }) => item) }),
    );
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    throw new TransactionConflictError(
      reasons.flatMap((reason, index): FailedCondition[] =>
        reason.Code === 'ConditionalCheckFailed'
          ? [{ condition: items[index]?.condition ?? 'unnamed', subject: items[index]?.subject }]
          : [],
      ),
      reasons.some((reason) => reason.Code === 'TransactionConflict'),
    );
  }
}

/**
 * An Update that adds each delta to a numeric attribute (creating it at 0).
 * Returns null when there is nothing to add and no condition to check.
 * `mustExist` names the condition that the item exists (its failing means
 * the thing counted is gone).
 */
export function addCounters(
  key: Record<string, string>,
  deltas: Partial<Record<string, number>>,
  options: { mustExist?: string; set?: Record<string, unknown> } = {},
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
      condition: options.mustExist,
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
    ...(options.mustExist && { condition: options.mustExist }),
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
