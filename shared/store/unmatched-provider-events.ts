import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type UnmatchedEventRecord, unmatchedEventItem } from './item-schemas/provider-connections.ts';
import { type TableSource, tableContext } from './table-context.ts';

export type { UnmatchedEventRecord };

/**
 * The events a provider sent for a connection that the service could not
 * record, and why (docs/providers.md, What happens to a webhook): kept 14
 * days per connection, newest first, for its owner to see.
 */

/** How long an unmatched event is kept. */
export const UNMATCHED_RETENTION_DAYS = 14;

export function unmatchedProviderEventStore(table: TableSource = tableContext) {
  return {
    /**
     * Keeps an event that matched nothing; `eventKey` makes it unique in its
     * connection (a redelivered payload overwrites its own record).
     */
    async put(orgId: number, eventKey: string, record: UnmatchedEventRecord): Promise<void> {
      const { name, client } = table();
      await client.send(
        new UpdateCommand({
          TableName: name,
          Key: keys.unmatchedProviderEvent(orgId, record.connectionId, record.receivedAt, eventKey),
          UpdateExpression: 'SET #type = :type, #record = :record, expiresAt = :expiresAt',
          ExpressionAttributeNames: { '#type': 'type', '#record': 'record' },
          ExpressionAttributeValues: {
            ':type': 'unmatchedProviderEvent',
            ':record': record,
            ':expiresAt':
              Math.floor(Date.parse(record.receivedAt) / 1000) + UNMATCHED_RETENTION_DAYS * 86_400,
          },
        }),
      );
    },

    /**
     * A page of the connection's unmatched events, newest first, from
     * `before` (the `sk` of the previous page's last); expired ones (TTL
     * deletes lazily) are left out.
     */
    async list(
      orgId: number,
      connectionId: number,
      page: { take: number; before?: string },
    ): Promise<{ records: UnmatchedEventRecord[]; next: string | null }> {
      const { name, client } = table();
      const now = Math.floor(Date.now() / 1000);
      const { Items = [], LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression: page.before ? 'pk = :pk AND sk < :before' : 'pk = :pk',
          FilterExpression: 'expiresAt > :now',
          ExpressionAttributeValues: {
            ':pk': keys.unmatchedProviderEventsOf(orgId, connectionId).pk,
            ':now': now,
            ...(page.before ? { ':before': page.before } : {}),
          },
          ScanIndexForward: false,
          Limit: page.take,
        }),
      );
      const records = Items.map((item) => unmatchedEventItem.parse(item.record));
      const last = Items.at(-1);
      return { records, next: LastEvaluatedKey && last ? String(last.sk) : null };
    },
  };
}

export const unmatchedProviderEvents = /* @__PURE__ */ unmatchedProviderEventStore();
