import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../infra/local/dynamodb.ts';
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
await ensureTable(dynamodbEndpoint(), tableName);
