import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchPut } from './batch.ts';
import * as keys from './item-keys.ts';
import { type SequenceHomeRecord, sequenceHomeItem } from './item-schemas/sequence-homes.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { SequenceHomeRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Sequence homes: which campaign holds a sequence, one item per sequence, so
 * that a route naming a sequence (its provider link) reads one campaign, not
 * every campaign of the organization. The campaign's list of sequences is the
 * truth: the import writes a home for each sequence it puts in a campaign
 * (the last import of a sequence id wins), and a home whose campaign no longer
 * holds the sequence is stale (domain/sequence-links.ts looks further).
 */
export function sequenceHomeStore(table: TableSource = tableContext) {
  const item = (orgId: number, campaignId: number, sequenceId: number) => ({
    ...keys.sequenceHome(orgId, sequenceId),
    type: 'sequenceHome',
    orgId,
    sequenceId,
    campaignId,
  });
  return {
    /** The put of a sequence's home, for a write of its own (a bulk import's image). */
    putOne(orgId: number, campaignId: number, sequenceId: number): TransactItem {
      return { Put: { TableName: table().name, Item: item(orgId, campaignId, sequenceId) } };
    },

    /**
     * Records `campaignId` as the home of each of `sequenceIds` (BatchWriteItem, 25 a request). Not in
     * the campaign's transaction, which its 50 sequences' links can fill: a home is a pointer that its
     * readers check against the campaign, so one missing or stale after a failure costs a longer read,
     * never a wrong answer.
     */
    async put(orgId: number, campaignId: number, sequenceIds: readonly number[]): Promise<void> {
      await batchPut(
        sequenceIds.map((sequenceId) => item(orgId, campaignId, sequenceId)),
        table(),
      );
    },

    /** The campaign a sequence's home names; null when it has none. `consistent` for a read-modify-write. */
    async campaignOf(
      orgId: number,
      sequenceId: number,
      options: { consistent?: boolean } = {},
    ): Promise<number | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({
          TableName: name,
          Key: keys.sequenceHome(orgId, sequenceId),
          ...(options.consistent && { ConsistentRead: true }),
        }),
      );
      return Item ? sequenceHomeItem.parse(Item).campaignId : null;
    },
  };
}

/** The sequence homes of the configured table. */
export const sequenceHomes = /* @__PURE__ */ sequenceHomeStore();
