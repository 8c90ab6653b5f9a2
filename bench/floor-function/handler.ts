import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The floor of every function's bundle: a bare DynamoDB function, the SDK's
 * client and document client as they ship (default credential chain and all),
 * reading one item per invocation. The bench builds it with the functions'
 * own settings and sets each function's size and cold start beside it.
 */

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { pk?: string; sk?: string }) => {
  const { Item } = await client.send(
    new GetCommand({
      TableName: process.env.TABLE_NAME,
      Key: { pk: event.pk ?? 'FLOOR', sk: event.sk ?? 'FLOOR' },
    }),
  );
  return { found: Item !== undefined };
};
