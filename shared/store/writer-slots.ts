import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { WRITER_SLOTS } from './counter-shards.ts';
import * as keys from './item-keys.ts';
import { queryAll } from './query.ts';
import { type TableSource, tableContext } from './table-context.ts';

/**
 * The writer slots: WRITER_SLOTS items a counter-writing process claims one
 * of, for a while, so that no two processes write the same counter shards at
 * once (shared/domain/writer-slot-lease.ts, docs/scaling.md). A claim names
 * its holder and when it ends, in milliseconds of the holder's clock.
 */
export interface SlotClaim {
  slot: number;
  holder: string;
  expiresAt: number;
}

/** Whether a write's condition refused it: the slot is someone else's. */
async function unlessRefused(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export function writerSlotStore(table: TableSource = tableContext) {
  return {
    /** Every slot ever claimed, with its last claim (one Query of their partition, at most WRITER_SLOTS items). */
    async claims(): Promise<SlotClaim[]> {
      const { pk, skPrefix } = keys.writerSlots();
      const items = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ConsistentRead: true,
        },
        table(),
      );
      return items
        .map((item) => ({
          slot: Number(String(item.sk).slice(skPrefix.length)),
          holder: String(item.holder),
          expiresAt: Number(item.expiresAt),
        }))
        .filter((claim) => Number.isInteger(claim.slot) && claim.slot >= 0 && claim.slot < WRITER_SLOTS);
    },

    /** Claims `slot` for `holder` until `expiresAt` if nobody holds it at `now`; false when someone does. */
    async claim(slot: number, holder: string, now: number, expiresAt: number): Promise<boolean> {
      const { name, client } = table();
      return unlessRefused(
        client.send(
          new PutCommand({
            TableName: name,
            Item: { ...keys.writerSlot(slot), holder, expiresAt },
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now OR holder = :holder',
            ExpressionAttributeValues: { ':now': now, ':holder': holder },
          }),
        ),
      );
    },

    /** Moves the end of `holder`'s claim on `slot` to `expiresAt`; false when the slot is no longer its. */
    async extend(slot: number, holder: string, expiresAt: number): Promise<boolean> {
      const { name, client } = table();
      return unlessRefused(
        client.send(
          new UpdateCommand({
            TableName: name,
            Key: keys.writerSlot(slot),
            UpdateExpression: 'SET expiresAt = :expiresAt',
            ConditionExpression: 'holder = :holder',
            ExpressionAttributeValues: { ':holder': holder, ':expiresAt': expiresAt },
          }),
        ),
      );
    },
  };
}

export type WriterSlotStore = ReturnType<typeof writerSlotStore>;

/** The writer slots of the configured table. */
export const writerSlots = /* @__PURE__ */ writerSlotStore();
