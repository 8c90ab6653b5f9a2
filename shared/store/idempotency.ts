import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type IdempotencyRecord, idempotencyItem } from './item-schemas/idempotency.ts';
import { type TableSource, tableContext } from './table-context.ts';

export type { IdempotencyRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Claimed `Idempotency-Key`s: which request claimed the key (its fingerprint
 * and a claim id), whether it is still running, and the response it replays
 * once done. Each expires by TTL.
 */

export function idempotencyStore(table: TableSource = tableContext) {
  return {
    /**
     * Claims the key for a running request, unless another holds it (false
     * then). DynamoDB deletes expired items lazily, so an expired record
     * counts as absent.
     */
    async claim(
      orgId: number,
      idempotencyKey: string,
      request: { fingerprint: string; claim: string; now: number; expiresAt: number },
    ): Promise<boolean> {
      const { name, client } = table();
      try {
        await client.send(
          new PutCommand({
            TableName: name,
            Item: {
              ...keys.idempotency(orgId, idempotencyKey),
              type: 'idempotency',
              orgId,
              fingerprint: request.fingerprint,
              claim: request.claim,
              state: 'running',
              expiresAt: request.expiresAt,
            },
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
            ExpressionAttributeValues: { ':now': request.now },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    /** The key's record, read consistently; null when none holds it. */
    async get(orgId: number, idempotencyKey: string): Promise<IdempotencyRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({
          TableName: name,
          Key: keys.idempotency(orgId, idempotencyKey),
          ConsistentRead: true,
        }),
      );
      return Item ? idempotencyItem.parse(Item) : null;
    },

    /** Releases the key (the request failed), so the client can retry. */
    async release(orgId: number, idempotencyKey: string): Promise<void> {
      const { name, client } = table();
      await client.send(new DeleteCommand({ TableName: name, Key: keys.idempotency(orgId, idempotencyKey) }));
    },

    /** Records the response of the request that holds the key. */
    async complete(orgId: number, idempotencyKey: string, response: unknown): Promise<void> {
      const { name, client } = table();
      await client.send(
        new UpdateCommand({
          TableName: name,
          Key: keys.idempotency(orgId, idempotencyKey),
          UpdateExpression: 'SET #state = :done, #response = :response',
          ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
          ExpressionAttributeValues: { ':done': 'done', ':response': response },
        }),
      );
    },
  };
}

/** The idempotency records of the configured table. */
export const idempotencyRecords = /* @__PURE__ */ idempotencyStore();
