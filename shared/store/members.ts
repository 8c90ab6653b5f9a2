import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type MembershipItem, membershipItem } from './item-schemas/memberships.ts';
import { queryAll } from './query.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';

export { MEMBER_ROLES } from '#definitions/item-fields.ts';

import type { MEMBER_ROLES } from '#definitions/item-fields.ts';

export type { MembershipItem };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * The people of an organization (dashboard members): one item per person and
 * organization, in the organization's partition (its member list) and on gsi1
 * under the person (the organizations they may pick after sign-in), read by
 * key and by person on every request of a dashboard session and every
 * sign-in (`getMembership`, `membershipsOfPerson`).
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

export function memberStore(table: TableSource = tableContext) {
  return {
    /** Adds the person or changes their role; one item, so no transaction. */
    async put(membership: MembershipItem): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: {
            ...keys.membership(membership.orgId, membership.subject),
            type: 'membership',
            ...membership,
          },
        }),
      );
    },

    /** The removed membership, or null when the person was not a member. */
    async remove(orgId: number, subject: string): Promise<MembershipItem | null> {
      const { name, client } = table();
      const { pk, sk } = keys.membership(orgId, subject);
      const { Attributes } = await client.send(
        new DeleteCommand({ TableName: name, Key: { pk, sk }, ReturnValues: 'ALL_OLD' }),
      );
      return Attributes ? membershipItem.parse(Attributes) : null;
    },

    /** An organization's members (a small partition by design), in subject order. */
    async ofOrganization(orgId: number): Promise<MembershipItem[]> {
      const { pk, skPrefix } = keys.membersOf(orgId);
      const items = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        },
        table(),
      );
      return items.map((item) => membershipItem.parse(item));
    },
  };
}

export const members = /* @__PURE__ */ memberStore();
