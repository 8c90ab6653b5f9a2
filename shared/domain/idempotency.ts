import { createHash, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { dynamo } from '../db/client.ts';
import { keys } from '../db/keys.ts';
import { ConflictError, UnprocessableError } from '../http/errors.ts';

/**
 * `Idempotency-Key` for writes: the first request with a key claims it and
 * stores its response; the same key with the same request within 24 hours
 * replays that response without writing again; the same key with another
 * request is 422. A request still running under the key is 409. A request
 * that fails releases the key, so the client can retry.
 */

/** How long a key and its response are kept. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** A JSON rendering with sorted keys, so the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The fingerprint of a request: what it targets and its body. */
export const requestFingerprint = (target: string, body: unknown): string =>
  createHash('sha256')
    .update(`${target}\n${canonical(body)}`)
    .digest('hex');

/** Runs `operation` at most once per (organization, key, fingerprint) within the TTL. */
export async function withIdempotency<T>(
  orgId: number,
  idempotencyKey: string | undefined,
  fingerprint: string,
  operation: () => Promise<T>,
): Promise<T> {
  if (idempotencyKey === undefined) return operation();
  const key = keys.idempotency(orgId, idempotencyKey);
  const now = Math.floor(Date.now() / 1000);
  // Marks this request's claim: when the SDK resends a claim whose answer was lost, the claim it then
  // finds is its own, not another request's in progress.
  const claim = randomUUID();
  try {
    await dynamo.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          type: 'idempotency',
          orgId,
          fingerprint,
          claim,
          state: 'running',
          expiresAt: now + IDEMPOTENCY_TTL_SECONDS,
        },
        // DynamoDB deletes expired items lazily, so an expired record counts as absent.
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const { Item } = await dynamo.send(
      new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
    );
    if (Item?.claim !== claim) return replayOrRefuse(Item, fingerprint);
  }
  let result: T;
  try {
    result = await operation();
  } catch (error) {
    await dynamo.send(new DeleteCommand({ TableName: tableName(), Key: key }));
    throw error;
  }
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #state = :done, #response = :response',
      ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
      ExpressionAttributeValues: { ':done': 'done', ':response': result },
    }),
  );
  return result;
}

/** Another request holds the key: its response when it is done with the same request, else 422 or 409. */
function replayOrRefuse<T>(item: Record<string, unknown> | undefined, fingerprint: string): T {
  if (item?.fingerprint !== fingerprint) {
    throw new UnprocessableError('Idempotency-Key was already used with a different request');
  }
  if (item.state !== 'done')
    throw new ConflictError('A request with this Idempotency-Key is still in progress');
  return item.response as T;
}
