import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { membershipItem } from './item-schemas/memberships.ts';
import type { MembershipItem } from './memberships.ts';
import { queryAll } from './query.ts';
import { type TableSource, tableContext } from './table-context.ts';

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * The people of an organization (dashboard members): one item per person and
 * organization, in the organization's partition (its member list) and on gsi1
 * under the person (the organizations they may pick after sign-in). Their
 * schema and the reads by key and by person are memberships.ts.
 */

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
