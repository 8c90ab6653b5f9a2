import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createApiKey } from '../auth/api-keys.ts';
import { tableName } from '../config.ts';
import { dynamo } from '../db/client.ts';
import { keys } from '../db/keys.ts';
import { createOrganization } from '../domain/organizations.ts';

/** The demo organization and a fresh API key for it. */
export interface DemoSeed {
  orgId: number;
  apiKey: string;
}

/** Builds the demo organization and records it as the demo. */
export async function seedDemo(): Promise<DemoSeed> {
  const organization = await createOrganization('Demo Organization');
  const { apiKey } = await createApiKey(organization.orgId);
  await dynamo.send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.demoSeed(), orgId: organization.orgId } }),
  );
  return { orgId: organization.orgId, apiKey };
}

/** The demo organization's id, if the store was seeded. */
export async function demoOrganizationId(): Promise<number | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName(), Key: keys.demoSeed() }));
  return typeof Item?.orgId === 'number' ? Item.orgId : null;
}
