import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type MembershipItem, membershipItem } from './item-schemas/memberships.ts';
import { queryAll } from './query.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

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

    /**
     * The transaction item that changes an existing member's role ('member-not-found' when they
     * were removed meanwhile).
     */
    changeRole(membership: MembershipItem): TransactItem {
      const { name } = table();
      return {
        Put: {
          TableName: name,
          Item: {
            ...keys.membership(membership.orgId, membership.subject),
            type: 'membership',
            ...membership,
          },
          ConditionExpression: 'attribute_exists(pk)',
        },
        condition: 'member-not-found',
      };
    },

    /** The transaction item that removes a member ('member-not-found' when they are gone already). */
    removal(orgId: number, subject: string): TransactItem {
      const { name } = table();
      const { pk, sk } = keys.membership(orgId, subject);
      return {
        Delete: { TableName: name, Key: { pk, sk }, ConditionExpression: 'attribute_exists(pk)' },
        condition: 'member-not-found',
      };
    },

    /**
     * The transaction item that requires another member to be an admin still ('admin-witness'):
     * written with a demotion or removal of an admin, two admins demoting each other at once
     * cannot both succeed, so the organization always keeps one.
     */
    adminStill(orgId: number, subject: string): TransactItem {
      const { name } = table();
      const { pk, sk } = keys.membership(orgId, subject);
      return {
        ConditionCheck: {
          TableName: name,
          Key: { pk, sk },
          ConditionExpression: '#role = :admin',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':admin': 'admin' },
        },
        condition: 'admin-witness',
      };
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
