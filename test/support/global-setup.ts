import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

const TIERS_WITH_DYNAMODB = ['integration', 'e2e'];

/**
 * Starts one DynamoDB Local for the whole run, only when a tier that needs it
 * is selected, and hands its endpoint to every test file.
 */
export default async function setup(project: TestProject) {
  const selected = project.vitest.projects.map((candidate) => candidate.name);
  if (!selected.some((name) => TIERS_WITH_DYNAMODB.includes(name))) return;
  const dynamodb = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
