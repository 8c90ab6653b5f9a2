import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type SignInItem, signInItem } from './item-schemas/dashboard-sign-ins.ts';
import { type TableSource, tableContext } from './table-context.ts';

export type { SignInItem };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * The dashboard's sign-ins under way, each addressed by the hash of its
 * OpenID `state`: what the sign-in remembers until its callback, used once.
 * They expire by TTL, and the callback checks the expiry because DynamoDB
 * deletes lazily. A store of its own, apart from the sessions
 * (dashboard-sessions.ts), which every request of a session reads.
 */

export function dashboardSignInStore(table: TableSource = tableContext) {
  return {
    async put(stateHash: string, signIn: SignInItem): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: { ...keys.dashboardSignIn(stateHash), type: 'dashboardSignIn', ...signIn },
        }),
      );
    },

    /** Takes a sign-in once: the item is deleted as it is read, so a callback cannot be replayed. */
    async take(stateHash: string): Promise<SignInItem | null> {
      const { name, client } = table();
      const { Attributes } = await client.send(
        new DeleteCommand({ TableName: name, Key: keys.dashboardSignIn(stateHash), ReturnValues: 'ALL_OLD' }),
      );
      return Attributes ? signInItem.parse(Attributes) : null;
    },
  };
}

export const dashboardSignIns = /* @__PURE__ */ dashboardSignInStore();
