import { inject } from 'vitest';
import { requiredEnv } from '#shared/config.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/stack.ts';

/**
 * Starts the local stack in this test worker on a free port, on the run's
 * DynamoDB Local and the file's own table (see setup.ts).
 */
export function startTestStack(): Promise<LocalStack> {
  return startLocalStack({
    port: 0,
    dynamodbEndpoint: inject('dynamodbEndpoint'),
    tableName: requiredEnv('TABLE_NAME'),
  });
}
