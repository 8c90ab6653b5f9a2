import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { localCredentials } from '#admin/local-credentials.ts';
import { createTableInput, tableDefinition } from '#definitions/table.ts';
import { LOCAL_REGION, localDynamoDbClient } from './dynamodb.ts';

/**
 * The requests DynamoDB Local's class archive is recorded over
 * (dynamodb-local.ts): one of each kind the local stack, its demo seed and
 * the tests make, on a table of the service's definition, so that the classes
 * serving them are in the archive rather than loaded from the jars at each
 * start. Only the kinds matter, not the data.
 */
export async function exerciseDynamoDbLocal(endpoint: string): Promise<void> {
  const client = localDynamoDbClient(endpoint);
  try {
    await oneRequestOfEachKind(client, endpoint);
  } finally {
    client.destroy();
  }
}

const TABLE = 'class-archive';

/** An item with every attribute type the service stores, in both indexes. */
const item = (index: number) => ({
  pk: { S: `ORG#1#ITEM#${index}` },
  sk: { S: 'ITEM' },
  gsi1pk: { S: 'ORG#1#ITEMS' },
  gsi1sk: { S: String(index).padStart(6, '0') },
  gsi2pk: { S: `ORG#1#GROUP#${index % 4}` },
  gsi2sk: { S: new Date(0).toISOString() },
  count: { N: String(index) },
  active: { BOOL: index % 2 === 0 },
  note: { NULL: true },
  tags: { SS: ['a', `t${index}`] },
  history: { L: [{ M: { at: { S: 'x' }, n: { N: '1' } } }] },
  details: { M: { name: { S: `item ${index}` }, scores: { M: { fit: { N: '0.5' } } } } },
});

async function oneRequestOfEachKind(client: DynamoDBClient, endpoint: string): Promise<void> {
  await client.send(new CreateTableCommand(createTableInput(TABLE, { stream: false })));
  const batches = Array.from({ length: 4 }, (_, batch) =>
    Array.from({ length: 25 }, (_, offset) => ({ PutRequest: { Item: item(batch * 25 + offset) } })),
  );
  await Promise.all(
    batches.map((requests) =>
      client.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: requests } })),
    ),
  );
  const key = (index: number) => ({ pk: item(index).pk, sk: item(index).sk });
  await client.send(
    new PutItemCommand({
      TableName: TABLE,
      Item: item(1000),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await client.send(
    new UpdateItemCommand({
      TableName: TABLE,
      Key: key(1),
      UpdateExpression:
        'SET #name = :name, #since = if_not_exists(#since, :since) ADD #count :one, #tags :tag REMOVE #note',
      ConditionExpression: 'attribute_exists(pk) AND #count >= :zero',
      ExpressionAttributeNames: {
        '#name': 'name',
        '#since': 'since',
        '#count': 'count',
        '#tags': 'tags',
        '#note': 'note',
      },
      ExpressionAttributeValues: {
        ':name': { S: 'renamed' },
        ':since': { S: new Date(0).toISOString() },
        ':one': { N: '1' },
        ':zero': { N: '0' },
        ':tag': { SS: ['b'] },
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        { Put: { TableName: TABLE, Item: item(1001), ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Update: {
            TableName: TABLE,
            Key: key(2),
            UpdateExpression: 'ADD #count :one',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':one': { N: '1' } },
          },
        },
        { ConditionCheck: { TableName: TABLE, Key: key(3), ConditionExpression: 'attribute_exists(pk)' } },
        { Delete: { TableName: TABLE, Key: key(4) } },
      ],
    }),
  );
  await client.send(new GetItemCommand({ TableName: TABLE, Key: key(5), ConsistentRead: true }));
  await client.send(
    new BatchGetItemCommand({
      RequestItems: {
        [TABLE]: {
          Keys: [key(6), key(7), key(4)],
          ConsistentRead: true,
          ProjectionExpression: '#pk, #sk',
          ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
        },
      },
    }),
  );
  await client.send(
    new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: TABLE, Key: key(8) } }] }),
  );
  await client.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'attribute_exists(#count)',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':pk': item(9).pk, ':prefix': { S: 'IT' } },
    }),
  );
  for (const index of tableDefinition.globalSecondaryIndexes) {
    await client.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: index.indexName,
        KeyConditionExpression: `${index.partitionKey} = :pk AND ${index.sortKey} > :from`,
        ExpressionAttributeValues: { ':pk': item(0)[index.partitionKey], ':from': { S: '0' } },
        ScanIndexForward: false,
        Limit: 10,
      }),
    );
  }
  await client.send(new ScanCommand({ TableName: TABLE, Limit: 10 }));
  await client.send(new DeleteItemCommand({ TableName: TABLE, Key: key(10) }));
  // The stream, as the local stack turns it on after its seed and its relay reads it.
  await client.send(
    new UpdateTableCommand({
      TableName: TABLE,
      StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
    }),
  );
  await client.send(new PutItemCommand({ TableName: TABLE, Item: item(1002) }));
  const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
  if (!Table?.LatestStreamArn) return;
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: localCredentials(),
    maxAttempts: 1,
  });
  try {
    const { StreamDescription } = await streams.send(
      new DescribeStreamCommand({ StreamArn: Table.LatestStreamArn }),
    );
    const shardId = StreamDescription?.Shards?.[0]?.ShardId;
    if (!shardId) return;
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: Table.LatestStreamArn,
        ShardId: shardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    await streams.send(new GetRecordsCommand({ ShardIterator }));
  } finally {
    streams.destroy();
  }
}
