import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { IndexName } from '#definitions/table.ts';
import { type TableContext, tableContext } from './table-context.ts';

/**
 * Reads the first `limit` items of an index partition in descending sort-key
 * order (newest or highest first). Offset pages read `skip + take` entries: the
 * cost grows with the offset asked for, never with the partition's size.
 */
export async function queryFirst(
  index: IndexName,
  partition: string,
  limit: number,
  order: 'descending' | 'ascending' = 'descending',
  table: TableContext = tableContext(),
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  while (items.length < limit) {
    const page = await table.client.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: index,
        KeyConditionExpression: `${index}pk = :pk`,
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: order === 'ascending',
        Limit: limit - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  return items;
}

/**
 * Every item a Query matches, following its pages. For partitions that are
 * small by design (an organization's campaigns, keys, webhooks; one account
 * with its qualifications), never for lists that grow with traffic.
 */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  table: TableContext = tableContext(),
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
