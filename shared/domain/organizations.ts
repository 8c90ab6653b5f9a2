import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { dynamo } from '../db/client.ts';
import { allocateId } from '../db/ids.ts';
import { keys } from '../db/keys.ts';
import { NotFoundError } from '../http/errors.ts';

/** Default cooldown window for raw-push eligibility, in days (ARCHITECTURE §4). */
export const DEFAULT_COOLDOWN_DAYS = 90;

/** An organization (tenant). */
export interface Organization {
  orgId: number;
  name: string;
  createdAt: string;
  cooldownDays: number;
}

/** Creates an organization with a fresh id. */
export async function createOrganization(name: string): Promise<Organization> {
  const orgId = await allocateId('organization');
  const organization: Organization = {
    orgId,
    name,
    createdAt: new Date().toISOString(),
    cooldownDays: DEFAULT_COOLDOWN_DAYS,
  };
  await dynamo.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.organization(orgId), type: 'organization', ...organization },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return organization;
}

/** Reads an organization; throws NotFoundError when it does not exist. */
export async function getOrganization(orgId: number): Promise<Organization> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.organization(orgId) }),
  );
  if (!Item) throw new NotFoundError(`Organization ${orgId} not found`);
  return {
    orgId: Item.orgId,
    name: Item.name,
    createdAt: Item.createdAt,
    cooldownDays: Item.cooldownDays ?? DEFAULT_COOLDOWN_DAYS,
  };
}
