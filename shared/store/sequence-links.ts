import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Provider } from '#schemas/import.ts';
import * as keys from './item-keys.ts';
import { type SequenceLinkRecord, sequenceLinkItem } from './item-schemas/sequence-links.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { SequenceLinkRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Sequence links: which sequence a provider's campaign id is, one item per
 * provider and id, so a provider webhook naming its campaign finds the
 * sequence with one GetItem. The campaign's sequence (its `external_id`) is
 * the truth: a link is written with it, and one the sequence no longer
 * carries (after a relink or a re-import) is stale and ignored by readers.
 */

export function sequenceLinkStore(table: TableSource = tableContext) {
  return {
    /**
     * The put of a link; a link of the same provider and id is replaced (the last link wins). With
     * `replacing`, the put fails ('link-moved') unless the id's link is still the one read: none (null),
     * or the one naming that sequence, so two links of one id at once cannot both win.
     */
    put(
      orgId: number,
      link: Omit<SequenceLinkRecord, 'orgId'>,
      options: { replacing?: { sequenceId: number } | null } = {},
    ): TransactItem {
      const { replacing } = options;
      const condition =
        replacing === undefined
          ? {}
          : replacing === null
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'attribute_not_exists(pk) OR sequenceId = :replaced',
                ExpressionAttributeValues: { ':replaced': replacing.sequenceId },
              };
      return {
        ...(replacing !== undefined && { condition: 'link-moved' }),
        Put: {
          ...condition,
          TableName: table().name,
          Item: {
            ...keys.sequenceLink(orgId, link.provider, link.externalId),
            type: 'sequenceLink',
            orgId,
            provider: link.provider,
            externalId: link.externalId,
            campaignId: link.campaignId,
            sequenceId: link.sequenceId,
            connectionId: link.connectionId,
          },
        },
      };
    },

    /**
     * The delete of a provider campaign id's link, when it still names `sequenceId` (a link that moved
     * to another sequence meanwhile is that sequence's: the transaction fails and is read again).
     */
    remove(
      orgId: number,
      link: { provider: Provider; externalId: string; sequenceId: number },
    ): TransactItem {
      return {
        Delete: {
          TableName: table().name,
          Key: keys.sequenceLink(orgId, link.provider, link.externalId),
          ConditionExpression: 'attribute_not_exists(pk) OR sequenceId = :sequence',
          ExpressionAttributeValues: { ':sequence': link.sequenceId },
        },
        condition: 'link-moved',
      };
    },

    /** The link of a provider's campaign id; null when there is none. `consistent` for a read-modify-write. */
    async get(
      orgId: number,
      providerName: Provider,
      externalId: string,
      options: { consistent?: boolean } = {},
    ): Promise<SequenceLinkRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({
          TableName: name,
          Key: keys.sequenceLink(orgId, providerName, externalId),
          ...(options.consistent && { ConsistentRead: true }),
        }),
      );
      return Item ? sequenceLinkItem.parse(Item) : null;
    },
  };
}

/** The sequence links of the configured table. */
export const sequenceLinks = /* @__PURE__ */ sequenceLinkStore();
