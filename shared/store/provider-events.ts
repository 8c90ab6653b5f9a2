import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { AssignmentRecord } from './assignments.ts';
import * as keys from './item-keys.ts';
import { assignmentItem } from './item-schemas/assignments.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Markers of applied provider events: one item per event id, written in the
 * transaction that applies the event, so a replay finds it and changes nothing.
 */

export function providerEventStore(table: TableSource = tableContext) {
  return {
    /**
     * Reads an assignment and whether the event was applied, consistently, in
     * one BatchGetItem. The assignment is null when the organization has none
     * with the id.
     */
    async readAssignmentAndMarker(
      orgId: number,
      assignmentId: number,
      eventId: string,
    ): Promise<{ assignment: AssignmentRecord | null; applied: boolean }> {
      const { name, client } = table();
      const assignmentKey = keys.assignment(orgId, assignmentId);
      const markerKey = keys.providerEvent(orgId, eventId);
      for (;;) {
        const result = await client.send(
          new BatchGetCommand({
            RequestItems: { [name]: { Keys: [assignmentKey, markerKey], ConsistentRead: true } },
          }),
        );
        // Rare: DynamoDB asked us to retry part of the batch; read both again.
        if (result.UnprocessedKeys?.[name]) continue;
        const items = result.Responses?.[name] ?? [];
        const assignment = items.find((item) => item.pk === assignmentKey.pk);
        return {
          assignment: assignment ? assignmentItem.parse(assignment) : null,
          applied: items.some((item) => item.pk === markerKey.pk),
        };
      }
    },

    /** The put of an event's marker; it fails when the event id was applied before. */
    markerPut(
      orgId: number,
      event: { eventId: string; assignmentId: number; eventType: string; at: string },
    ): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.providerEvent(orgId, event.eventId),
            type: 'providerEvent',
            orgId,
            assignmentId: event.assignmentId,
            eventType: event.eventType,
            at: event.at,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        condition: 'event-applied',
      };
    },
  };
}

/** The provider event markers of the configured table. */
export const providerEvents = /* @__PURE__ */ providerEventStore();
