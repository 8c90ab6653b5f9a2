import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import {
  type EnrollmentFailureRecord,
  enrolledUnderDomainItem,
  enrollmentFailureItem,
} from './item-schemas/enrollments.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { EnrollmentFailureRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * What enrollment at the providers keeps beside the assignments: the list of
 * refused enrollments an operator reviews, the enrolled leads under each
 * domain (so excluding a domain stops them), and the pacing of each
 * connection's (or provider workspace's) requests.
 */

/** How long a refused enrollment stays in the list (the assignment keeps its outcome for good). */
export const ENROLLMENT_FAILURE_RETENTION_DAYS = 30;

/**
 * A page of the organization's refused enrollments, newest first, from `before` (the previous
 * page's last `sk`): what operators list. A function of its own, not a method of `enrollments`,
 * so that the enrollment consumer, which only writes them, does not carry it (a store object is
 * kept whole wherever it is used: docs/architecture.md, Bundles).
 */
export async function enrollmentFailuresOf(
  orgId: number,
  page: { take: number; before?: string },
  table: TableContext = tableContext(),
): Promise<{ records: EnrollmentFailureRecord[]; next: string | null }> {
  const { Items = [], LastEvaluatedKey } = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: page.before ? 'pk = :pk AND sk < :before' : 'pk = :pk',
      FilterExpression: 'expiresAt > :now',
      ExpressionAttributeValues: {
        ':pk': keys.enrollmentFailuresOf(orgId).pk,
        ':now': Math.floor(Date.now() / 1000),
        ...(page.before ? { ':before': page.before } : {}),
      },
      ScanIndexForward: false,
      Limit: page.take,
    }),
  );
  const records = Items.map((item) => enrollmentFailureItem.parse(item.record));
  const last = Items.at(-1);
  return { records, next: LastEvaluatedKey && last ? String(last.sk) : null };
}

/**
 * Whose request budget a pacing item holds: a connection's own, or a provider workspace's, which
 * every connection to that workspace shares (Instantly: docs/providers.md, Pacing by workspace).
 */
export type PacingBudget = { orgId: number; connectionId: number } | { provider: string; workspace: string };

const pacingKey = (budget: PacingBudget) =>
  'workspace' in budget
    ? keys.providerWorkspacePacing(budget.provider, budget.workspace)
    : keys.providerRequestPacing(budget.orgId, budget.connectionId);

export function enrollmentStore(table: TableSource = tableContext) {
  return {
    /** The put of a refused enrollment into the organization's list. */
    putFailure(orgId: number, failure: EnrollmentFailureRecord): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.enrollmentFailure(orgId, failure.failedAt, failure.assignmentId),
            type: 'enrollmentFailure',
            record: failure,
            expiresAt:
              Math.floor(Date.parse(failure.failedAt) / 1000) + ENROLLMENT_FAILURE_RETENTION_DAYS * 86_400,
          },
        },
      };
    },

    /** The put of an enrolled assignment under one of its contact's domains. */
    putEnrolledUnderDomain(orgId: number, domain: string, assignmentId: number): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.enrolledUnderDomain(orgId, domain, assignmentId),
            type: 'enrolledUnderDomain',
            assignmentId,
          },
        },
      };
    },

    /** A page of the assignments enrolled under a domain, from `after` (the previous page's last id). */
    async enrolledUnderDomain(
      orgId: number,
      domain: string,
      page: { take: number; after?: string },
    ): Promise<{ assignmentIds: number[]; next: string | null }> {
      const { name, client } = table();
      const { Items = [], LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: name,
          KeyConditionExpression: page.after ? 'pk = :pk AND sk > :after' : 'pk = :pk',
          ExpressionAttributeValues: {
            ':pk': keys.enrolledUnderDomainOf(orgId, domain).pk,
            ...(page.after ? { ':after': page.after } : {}),
          },
          Limit: page.take,
        }),
      );
      const assignmentIds = Items.map((item) => enrolledUnderDomainItem.parse(item).assignmentId);
      const last = Items.at(-1);
      return { assignmentIds, next: LastEvaluatedKey && last ? String(last.sk) : null };
    },

    /**
     * Takes the next request slot of a budget (GCRA: one request every `intervalMs`, no
     * burst): one conditional UpdateItem that moves the slot on from the one last seen. Returns
     * the slot's time (ms since the epoch; the caller waits until then), or, when another caller
     * took the slot meanwhile, null and the slot that holds now (`seen`), to try again with.
     */
    async takeRequestSlot(
      budget: PacingBudget,
      intervalMs: number,
      seen: number | null,
      now: number,
    ): Promise<{ slot: number } | { slot: null; seen: number | null }> {
      const { name, client } = table();
      const slot = Math.max(now, seen ?? 0);
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: pacingKey(budget),
            UpdateExpression: 'SET nextSlot = :next, #type = :type',
            ConditionExpression: seen === null ? 'attribute_not_exists(nextSlot)' : 'nextSlot = :seen',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':next': slot + intervalMs,
              ':type': 'providerRequestPacing',
              ...(seen === null ? {} : { ':seen': seen }),
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { slot };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // The exception carries the item as DynamoDB attribute values (the document client does not convert it).
        const held = Number(error.Item?.nextSlot?.N);
        return { slot: null, seen: Number.isFinite(held) ? held : null };
      }
    },

    /** Pushes a budget's next slot to at least `until` (a 429's Retry-After holds every caller back). */
    async holdRequestsUntil(budget: PacingBudget, until: number): Promise<void> {
      const { name, client } = table();
      try {
        await client.send(
          new UpdateCommand({
            TableName: name,
            Key: pacingKey(budget),
            UpdateExpression: 'SET nextSlot = :until, #type = :type',
            ConditionExpression: 'attribute_not_exists(nextSlot) OR nextSlot < :until',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':until': until, ':type': 'providerRequestPacing' },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
  };
}

/** The enrollment items of the configured table. */
export const enrollments = /* @__PURE__ */ enrollmentStore();
