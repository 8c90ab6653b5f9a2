import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type AssistantGrantItem, assistantGrantItem } from './item-schemas/assistant-grants.ts';
import { type TableSource, tableContext } from './table-context.ts';

export { CLIENT_KINDS } from '#definitions/item-fields.ts';

import type { CLIENT_KINDS } from '#definitions/item-fields.ts';

export type { AssistantGrantItem };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Organizations' approvals of OAuth clients (the assistants connected to an
 * organization): one item per organization and client, in the organization's
 * partition. `approvalId` changes whenever a revoked approval is given again,
 * and every token carries the one it was issued under, so a revocation ends
 * the tokens issued before it for good.
 */

export type ClientKind = (typeof CLIENT_KINDS)[number];

/** What an approval records. */
export type Approval = Omit<AssistantGrantItem, 'createdAt' | 'approvalId' | 'revokedAt'>;

export function assistantGrantStore(table: TableSource = tableContext) {
  const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

  return {
    async get(orgId: number, clientId: string): Promise<AssistantGrantItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.assistantGrant(orgId, clientId), ConsistentRead: true }),
      );
      return Item ? assistantGrantItem.parse(Item) : null;
    },

    /** The organization's grants, revoked ones included (one Query of its partition). */
    async list(orgId: number): Promise<AssistantGrantItem[]> {
      const { name, client } = table();
      const { pk, skPrefix } = keys.assistantGrantsOf(orgId);
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        }),
      );
      return Items.map((item) => assistantGrantItem.parse(item));
    },

    /** Records the approval on a standing grant, keeping its approval id; null when none stands. */
    async approveAgain(approval: Approval): Promise<AssistantGrantItem | null> {
      const { name, client } = table();
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.assistantGrant(approval.orgId, approval.clientId),
            UpdateExpression: 'SET clientName = :name, #kind = :kind, approvedBy = :by, approvedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
            ExpressionAttributeNames: { '#kind': 'kind' },
            ExpressionAttributeValues: {
              ':name': approval.clientName,
              ':kind': approval.kind,
              ':by': approval.approvedBy,
              ':at': approval.approvedAt,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return assistantGrantItem.parse(Attributes);
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    /**
     * Writes a new grant where none stands (none at all, or a revoked one, which
     * it replaces); false when one stands (a concurrent approval wrote it).
     */
    async putNew(grant: Omit<AssistantGrantItem, 'revokedAt'>, options: { replaceRevoked: boolean }) {
      const { name, client } = table();
      try {
        await client.send(
          new PutCommand({
            TableName: name,
            Item: { ...keys.assistantGrant(grant.orgId, grant.clientId), type: 'assistantGrant', ...grant },
            ConditionExpression: options.replaceRevoked
              ? 'attribute_not_exists(pk) OR attribute_exists(revokedAt)'
              : 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    /** Sets the grant's revocation time unless it has one; null when the organization has no such grant. */
    async revoke(orgId: number, clientId: string, now: string): Promise<AssistantGrantItem | null> {
      const { name, client } = table();
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.assistantGrant(orgId, clientId),
            UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':now': now },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return assistantGrantItem.parse(Attributes);
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },
  };
}

/** The grants of the configured table. */
export const assistantGrants = /* @__PURE__ */ assistantGrantStore();
