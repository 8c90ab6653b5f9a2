import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type AuditEntryItem, auditEntryItem } from './item-schemas/audit-log.ts';
import { type TableSource, tableContext } from './table-context.ts';

export type { AuditEntryItem };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * An organization's audit log: who changed what, when. One item per change in
 * the organization's audit partition, sorted by time, kept a year (TTL).
 */

export const AUDIT_RETENTION_SECONDS = 365 * 24 * 3600;

export function auditLogStore(table: TableSource = tableContext) {
  return {
    async append(orgId: number, entry: AuditEntryItem): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: {
            ...keys.auditEntry(orgId, entry.at, entry.entryId),
            type: 'auditEntry',
            ...entry,
            expiresAt: Math.floor(Date.parse(entry.at) / 1000) + AUDIT_RETENTION_SECONDS,
          },
        }),
      );
    },

    /** A page of entries, newest first, after the sort key `after` (the previous page's last). */
    async newestFirst(
      orgId: number,
      take: number,
      after?: string,
    ): Promise<{ entries: AuditEntryItem[]; last: string | null }> {
      const { name, client } = table();
      const { pk } = keys.auditLogOf(orgId);
      const { Items, LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ScanIndexForward: false,
          Limit: take,
          ExclusiveStartKey: after ? { pk, sk: after } : undefined,
        }),
      );
      return {
        entries: (Items ?? []).map((item) => auditEntryItem.parse(item)),
        last: LastEvaluatedKey ? String(LastEvaluatedKey.sk) : null,
      };
    },
  };
}

export const auditLog = /* @__PURE__ */ auditLogStore();
