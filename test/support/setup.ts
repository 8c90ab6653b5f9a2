import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll } from 'vitest';
import { ensureTable, localDynamoDbClient } from '../../infra/local/dynamodb.ts';
import { useLocalConfiguration } from '../../infra/local/stack.ts';
import { dynamodbEndpoint } from './dynamodb-endpoint.ts';

/**
 * Runs in every test file's worker before its tests: installs a configuration
 * that points the service at its worker's DynamoDB Local (global-setup.ts)
 * and a table of the file's own, created from the single table definition, so files never see
 * each other's data.
 */
const tableName = `test-${randomUUID()}`;
useLocalConfiguration(dynamodbEndpoint(), tableName);
// Only a local stack's relay reads the stream: the tiers without one (TEST_TABLE_STREAM=off) leave it off,
// since DynamoDB Local keeps every table's stream records in one store and slows down as it fills.
await ensureTable(dynamodbEndpoint(), tableName, { stream: process.env.TEST_TABLE_STREAM !== 'off' });

// The file's table goes with it, so a file late in a worker does not work beside every earlier file's items.
afterAll(async () => {
  const client = localDynamoDbClient(dynamodbEndpoint());
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } finally {
    client.destroy();
  }
});
