import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { localCredentials } from '#admin/local-credentials.ts';
import { createTableInput, tableDefinition } from '#definitions/table.ts';
import { serviceAwsClient } from '#platform/configured.ts';

export const LOCAL_REGION = 'us-east-1';

/** A low-level client for DynamoDB Local (table administration; the service uses its own client). */
export function localDynamoDbClient(endpoint: string): DynamoDBClient {
  // Without the SDK's logger middleware (configured.ts): the local stack reads the table's stream with it.
  return serviceAwsClient(
    new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: localCredentials(), maxAttempts: 1 }),
  );
}

/**
 * A client of DynamoDB Local's streams, without the SDK's logger middleware, as Lambda's own poller has
 * no such cost: it would walk every GetRecords answer through the operation's schema for a log line
 * nobody writes (configured.ts).
 */
export function localStreamsClient(endpoint: string): DynamoDBStreamsClient {
  return serviceAwsClient(
    new DynamoDBStreamsClient({ endpoint, region: LOCAL_REGION, credentials: localCredentials() }),
  );
}

/** Creates the service table from the single table definition unless it exists. */
export async function ensureTable(
  endpoint: string,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<'created' | 'existed'> {
  const client = localDynamoDbClient(endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName, options)));
    return 'created';
  } catch (error) {
    if (error instanceof ResourceInUseException) return 'existed';
    throw error;
  } finally {
    client.destroy();
  }
}

/** Turns the table's stream on, as the table definition has it, unless it is on. */
export async function ensureStream(endpoint: string, tableName: string): Promise<void> {
  const client = localDynamoDbClient(endpoint);
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.StreamSpecification?.StreamEnabled) return;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
      }),
    );
  } finally {
    client.destroy();
  }
}
