import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import '#definitions/zod-english.ts';
import * as keys from './item-keys.ts';
import { queryAll } from './query.ts';
import { type TableSource, tableContext } from './table-context.ts';

// Each schema and store below is built in a pure-annotated closure or call: a bundle keeps only those
// its function uses (esbuild cannot tell that zod's builders have no side effects; docs/architecture.md, Bundles).

/**
 * The people of an organization (dashboard members): one item per person and
 * organization, in the organization's partition (its member list) and on gsi1
 * under the person (the organizations they may pick after sign-in).
 */

export const MEMBER_ROLES = ['admin', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const membershipItem = /* @__PURE__ */ (() =>
  z.object({
    orgId: z.number(),
    /** The OpenID provider's subject of the person. */
    subject: z.string(),
    email: z.string(),
    role: z.enum(MEMBER_ROLES),
    addedAt: z.string(),
    addedBy: z.string(),
  }))();
export type MembershipItem = z.infer<typeof membershipItem>;

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

    async get(orgId: number, subject: string): Promise<MembershipItem | null> {
      const { name, client } = table();
      const { pk, sk } = keys.membership(orgId, subject);
      const { Item } = await client.send(new GetCommand({ TableName: name, Key: { pk, sk } }));
      return Item ? membershipItem.parse(Item) : null;
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

    /** The organizations a person belongs to (one Query; at most 100, by organization id). */
    async ofPerson(subject: string): Promise<MembershipItem[]> {
      const { name, client } = table();
      const { Items } = await client.send(
        new QueryCommand({
          TableName: name,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.organizationsOfPerson(subject).gsi1pk },
          Limit: 100,
        }),
      );
      return (Items ?? []).map((item) => membershipItem.parse(item));
    },
  };
}

export const members = /* @__PURE__ */ memberStore();
