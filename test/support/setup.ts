import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { configureLocalEnvironment } from '../../infra/local/stack.ts';

/**
 * Runs in every test file's worker before its tests: points the service at the
 * run's DynamoDB Local and a table of the file's own, created from the single
 * table definition, so files never see each other's data.
 */
const tableName = `test-${randomUUID()}`;
configureLocalEnvironment(inject('dynamodbEndpoint'), tableName);
await ensureTable(inject('dynamodbEndpoint'), tableName);
