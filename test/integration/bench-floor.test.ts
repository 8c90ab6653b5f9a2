import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { configuration } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { closeFloor, recordCalls, replayFloor } from '../../bench/floor.ts';

/*
 * The bench's floor (bench/floor.ts) replays the DynamoDB calls an endpoint
 * made, straight from the bench process. Its figures mean something only if
 * the replays reach the same DynamoDB as the service: here a recorded read
 * and write are replayed against this file's table on DynamoDB Local, and
 * every replayed call must succeed.
 */

describe("the bench's floor", () => {
  it('replays recorded calls against the DynamoDB the service uses, without errors', async () => {
    const { tableName } = configuration();
    const key = { pk: 'BENCH#FLOOR', sk: 'ITEM' };
    const { calls } = await recordCalls(async () => {
      await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...key, value: 1 } }));
      await dynamo.send(new GetCommand({ TableName: tableName, Key: key }));
    });
    expect(calls.map((call) => call.operation)).toEqual(['PutItem', 'GetItem']);
    try {
      const { result } = await replayFloor([calls], 200);
      expect({ errors: result.errors, firstError: result.firstError }).toEqual({
        errors: 0,
        firstError: undefined,
      });
      expect(result.operations).toBeGreaterThan(0);
      expect(result.calls).toBeGreaterThanOrEqual(2 * result.operations);
    } finally {
      closeFloor();
    }
  });
});
