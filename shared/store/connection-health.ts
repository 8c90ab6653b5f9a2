import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import type { ProviderConnectionRecord } from './item-schemas/provider-connections.ts';
import { type TableContext, tableContext } from './table-context.ts';

/*
 * A provider connection's health (docs/providers.md, Connection health), in a
 * module of its own apart from provider-connections.ts: the enrollment
 * consumer reads connections at start but writes their health only once it
 * calls a provider, so it loads this with the health tracking, on demand
 * (docs/architecture.md, Bundles).
 */

/** What a provider call or a credential check found of a connection. */
export type ConnectionHealth =
  | { status: 'ok'; at: string }
  | { status: 'failing'; at: string; message: string };

/** How old the last health write must be before a call that changes no status writes again. */
export const HEALTH_WRITE_INTERVAL_MS = 60_000;

/** What a health write did: written (with the status it replaced), or held back; null when the connection is gone. */
export type HealthWrite =
  | { written: true; previous: ProviderConnectionRecord['status'] }
  | { written: false; status: ProviderConnectionRecord['status']; healthWrittenAt: string | null }
  | null;

/**
 * Writes a connection's health: `ok` sets `lastSuccessAt`, `failing` sets `lastError`. With
 * `unlessRecent` (the calls of enrollment, stops and replies) it is one conditional UpdateItem that
 * writes only when the status changes or the last health write is a minute old, so a burst of calls
 * on one connection costs at most one write a minute, whatever the number of consumers; without (an
 * operator's check) it always writes.
 */
export async function writeConnectionHealth(
  orgId: number,
  connectionId: number,
  health: ConnectionHealth,
  options: { unlessRecent: boolean },
  table: TableContext = tableContext(),
): Promise<HealthWrite> {
  const since = new Date(Date.parse(health.at) - HEALTH_WRITE_INTERVAL_MS).toISOString();
  const set = health.status === 'ok' ? 'lastSuccessAt = :at' : 'lastError = :error';
  try {
    const { Attributes } = await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.providerConnection(orgId, connectionId),
        UpdateExpression: `SET #status = :status, healthWrittenAt = :at, ${set}`,
        ConditionExpression: options.unlessRecent
          ? 'attribute_exists(pk) AND (attribute_not_exists(healthWrittenAt) OR healthWrittenAt <= :since OR #status <> :status)'
          : 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': health.status,
          ':at': health.at,
          ...(health.status === 'failing' ? { ':error': { message: health.message, at: health.at } } : {}),
          ...(options.unlessRecent ? { ':since': since } : {}),
        },
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { written: true, previous: Attributes?.status === 'failing' ? 'failing' : 'ok' };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // The exception carries the item as DynamoDB attribute values (the document client does not convert it).
    const held = error.Item;
    if (!held) return null;
    return {
      written: false,
      status: held.status?.S === 'failing' ? 'failing' : 'ok',
      healthWrittenAt: held.healthWrittenAt?.S ?? null,
    };
  }
}
