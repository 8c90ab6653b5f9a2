import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { useLocalConfiguration } from '../../infra/local/stack.ts';

/**
 * Runs in every test file's worker before its tests: installs a configuration
 * that points the service at the run's DynamoDB Local and a table of the
 * file's own, created from the single table definition, so files never see
 * each other's data.
 */
const tableName = `test-${randomUUID()}`;
useLocalConfiguration(inject('dynamodbEndpoint'), tableName);
await ensureTable(inject('dynamodbEndpoint'), tableName);
