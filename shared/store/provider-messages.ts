import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { providerMessageItem } from './item-schemas/provider-connections.ts';
import { type TableSource, tableContext } from './table-context.ts';

/**
 * Which message of ours a provider's message id is: recorded when the
 * provider reports a message sent, read when it reports an open or a click
 * of it (docs/providers.md, What happens to a webhook).
 */
export function providerMessageStore(table: TableSource = tableContext) {
  return {
    /** Our message id of a provider's message id; null when none was recorded. */
    async messageIdOf(orgId: number, provider: string, providerMessageId: string): Promise<number | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.providerMessage(orgId, provider, providerMessageId) }),
      );
      return Item ? providerMessageItem.parse(Item).messageId : null;
    },

    /**
     * Records which message of ours a provider's message id is, unless one is
     * recorded already; returns the one that holds.
     */
    async claim(
      orgId: number,
      provider: string,
      providerMessageId: string,
      messageId: number,
    ): Promise<number> {
      const { name, client } = table();
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: name,
          Key: keys.providerMessage(orgId, provider, providerMessageId),
          UpdateExpression: 'SET #type = :type, messageId = if_not_exists(messageId, :id)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'providerMessage', ':id': messageId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return providerMessageItem.parse(Attributes).messageId;
    },
  };
}

export const providerMessages = /* @__PURE__ */ providerMessageStore();
