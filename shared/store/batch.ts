import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type TableContext, tableContext } from './table-context.ts';

type Key = Record<string, unknown>;

/** DynamoDB's limits per BatchGetItem and BatchWriteItem request. */
const GET_BATCH = 100;
const WRITE_BATCH = 25;

/**
 * Reads items by key with BatchGetItem, 100 keys a request, retrying keys
 * DynamoDB leaves unprocessed. Missing items are simply absent from the result.
 * `attributes`: only these of each item (a projection), when the reader needs
 * no more: less to send, decode and check.
 */
export async function batchGet(
  itemKeys: readonly Key[],
  options: { consistent?: boolean; attributes?: readonly string[] } = {},
  table: TableContext = tableContext(),
): Promise<Key[]> {
  const { attributes } = options;
  // Placeholders for every name: some (`name`) are reserved words in an expression.
  const projection = attributes && {
    ProjectionExpression: attributes.map((_, index) => `#a${index}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, index) => [`#a${index}`, name])),
  };
  const items: Key[] = [];
  for (let start = 0; start < itemKeys.length; start += GET_BATCH) {
    let pending: Key[] = itemKeys.slice(start, start + GET_BATCH);
    while (pending.length > 0) {
      const result = await table.client.send(
        new BatchGetCommand({
          RequestItems: {
            [table.name]: { Keys: pending, ConsistentRead: options.consistent, ...projection },
          },
        }),
      );
      items.push(...(result.Responses?.[table.name] ?? []));
      pending = result.UnprocessedKeys?.[table.name]?.Keys ?? [];
    }
  }
  return items;
}

/** Writes items with BatchWriteItem, 25 a request, retrying unprocessed ones. */
export async function batchPut(items: readonly Key[], table: TableContext = tableContext()): Promise<void> {
  for (let start = 0; start < items.length; start += WRITE_BATCH) {
    let pending = items.slice(start, start + WRITE_BATCH).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const result = await table.client.send(
        new BatchWriteCommand({ RequestItems: { [table.name]: pending } }),
      );
      pending = (result.UnprocessedItems?.[table.name] as typeof pending | undefined) ?? [];
    }
  }
}
