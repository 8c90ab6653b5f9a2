import { GetItemCommand } from '@aws-sdk/client-dynamodb';
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
 * every replayed call must succeed. Calls the service sent through its
 * document client are replayed through one, as the same document commands.
 */

describe("the bench's floor", () => {
  it('replays recorded calls against the DynamoDB the service uses, without errors', async () => {
    const { tableName } = configuration();
    const key = { pk: 'BENCH#FLOOR', sk: 'ITEM' };
    const { calls } = await recordCalls(async () => {
      await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...key, value: 1 } }));
      await dynamo.send(new GetCommand({ TableName: tableName, Key: key }));
      await dynamo.send(
        new GetItemCommand({ TableName: tableName, Key: { pk: { S: key.pk }, sk: { S: key.sk } } }),
      );
    });
    expect(calls.map((call) => call.operation)).toEqual(['PutItem', 'GetItem', 'GetItem']);
    // The document client's input as the store gave it, and none for the call sent without it.
    expect(calls.map((call) => call.document)).toEqual([
      { TableName: tableName, Item: { ...key, value: 1 } },
      { TableName: tableName, Key: key },
      undefined,
    ]);
    expect(calls[1]!.input).toMatchObject({ Key: { pk: { S: key.pk } } });
    try {
      const { result } = await replayFloor([calls], 200);
      expect({ errors: result.errors, firstError: result.firstError }).toEqual({
        errors: 0,
        firstError: undefined,
      });
      expect(result.operations).toBeGreaterThan(0);
      expect(result.calls).toBeGreaterThanOrEqual(3 * result.operations);
    } finally {
      closeFloor();
    }
  });
});
