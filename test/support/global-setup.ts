import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One DynamoDB Local per worker; a test file uses its worker's (`dynamodbEndpoint()` in dynamodb-endpoint.ts). */
    dynamodbEndpoints: string[];
  }
}

const TIERS_WITH_DYNAMODB = ['integration', 'e2e'];

/**
 * Starts DynamoDB Local for the run, only when a tier that needs it is
 * selected. With the e2e tier, one per worker, so that the files running at
 * once never share one: DynamoDB Local numbers the stream records of all its
 * tables together, and a local stack's stream relay, which starts at the
 * stream's end, loses its place when another table is written at the same
 * moment (GetRecords then fails as "trimmed", for good); and one file's load
 * would slow another's transactions into conflicts. Integration files get
 * one each too: the seeding files' writes would otherwise queue behind each
 * other in a single JVM.
 */
export default async function setup(project: TestProject) {
  const selected = project.vitest.projects.map((candidate) => candidate.name);
  if (!selected.some((name) => TIERS_WITH_DYNAMODB.includes(name))) return;
  const count = Math.max(1, Math.floor(Number(project.vitest.config.maxWorkers) || 1));
  const instances = await Promise.all(Array.from({ length: count }, () => startDynamoDbLocal()));
  project.provide(
    'dynamodbEndpoints',
    instances.map((instance) => instance.endpoint),
  );
  return async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  };
}
