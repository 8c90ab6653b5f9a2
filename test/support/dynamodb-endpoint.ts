import { inject } from 'vitest';

/**
 * The DynamoDB Local of the worker this file runs in: global-setup.ts starts
 * one per worker, and Vitest numbers the workers running at once from 1
 * (VITEST_POOL_ID), so files running at the same time never share one.
 */
export function dynamodbEndpoint(): string {
  const endpoints = inject('dynamodbEndpoints');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return endpoints[(worker - 1) % endpoints.length]!;
}
