import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type SessionItem, sessionItem } from './item-schemas/dashboard-sessions.ts';
import { type TableSource, tableContext } from './table-context.ts';

export type { SessionItem };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Dashboard sessions. A session is addressed by the hash of the opaque value
 * its cookie holds (the value itself is never stored). It expires by TTL, and
 * readers check the expiry because DynamoDB deletes lazily. The sign-ins
 * under way are dashboard-sign-ins.ts.
 */

export function dashboardSessionStore(table: TableSource = tableContext) {
  return {
    async create(sessionHash: string, session: SessionItem): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: { ...keys.dashboardSession(sessionHash), type: 'dashboardSession', ...session },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async get(sessionHash: string): Promise<SessionItem | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.dashboardSession(sessionHash) }),
      );
      return Item ? sessionItem.parse(Item) : null;
    },

    /** Moves the idle expiry on; nothing when the session is gone (signed out meanwhile). */
    async touch(sessionHash: string, expiresAt: number): Promise<void> {
      const { name, client } = table();
      await client
        .send(
          new UpdateCommand({
            TableName: name,
            Key: keys.dashboardSession(sessionHash),
            UpdateExpression: 'SET expiresAt = :expiresAt',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':expiresAt': expiresAt },
          }),
        )
        .catch((error: Error) => {
          if (error.name !== 'ConditionalCheckFailedException') throw error;
        });
    },

    /** Sets the session's organization; false when the session is gone. */
    async selectOrganization(sessionHash: string, orgId: number): Promise<boolean> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.dashboardSession(sessionHash),
            UpdateExpression: 'SET orgId = :orgId',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':orgId': orgId },
          }),
        );
        return true;
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') return false;
        throw error;
      }
    },

    async remove(sessionHash: string): Promise<void> {
      const { name, client } = table();
      await client.send(new DeleteCommand({ TableName: name, Key: keys.dashboardSession(sessionHash) }));
    },
  };
}

export const dashboardSessions = /* @__PURE__ */ dashboardSessionStore();
