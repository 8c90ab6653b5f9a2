import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type MembershipItem, membershipItem } from './item-schemas/memberships.ts';
import { type TableContext, tableContext } from './table-context.ts';

export { MEMBER_ROLES } from '#definitions/item-fields.ts';

import type { MEMBER_ROLES } from '#definitions/item-fields.ts';

export type { MembershipItem };

/**
 * Memberships, one item per person and organization (members.ts writes them
 * and lists an organization's), read by key and by person: what every request
 * of a dashboard session and every sign-in asks. Functions of their own in a
 * module of their own, so that a cold start of the dashboard does not read
 * the members store, which only its members page uses (docs/architecture.md,
 * Bundles).
 */

export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The person's membership of the organization; null when they are not a member. */
export async function getMembership(
  orgId: number,
  subject: string,
  table: TableContext = tableContext(),
): Promise<MembershipItem | null> {
  const { pk, sk } = keys.membership(orgId, subject);
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: { pk, sk } }));
  return Item ? membershipItem.parse(Item) : null;
}

/** The organizations a person belongs to (one Query; at most 100, by organization id). */
export async function membershipsOfPerson(
  subject: string,
  table: TableContext = tableContext(),
): Promise<MembershipItem[]> {
  const { Items } = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.organizationsOfPerson(subject).gsi1pk },
      Limit: 100,
    }),
  );
  return (Items ?? []).map((item) => membershipItem.parse(item));
}
