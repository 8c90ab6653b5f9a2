import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MCP_RATE_WINDOW_RETENTION_SECONDS } from '#definitions/mcp-limits.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';

/**
 * Counts one request of an OAuth client against its rate: a fixed window per
 * client and second of the clock, one counter item each, raised by a
 * conditional UpdateItem that refuses to pass the limit. Every Lambda instance
 * shares the counter, so the limit holds however many of them answer.
 * Returns false when the client already used its rate in this second.
 */
export async function admitMcpRequest(clientId: string, requestsPerSecond: number): Promise<boolean> {
  const second = Math.floor(Date.now() / 1000);
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.mcpRequestWindow(clientId, second),
        UpdateExpression: 'ADD requests :one SET expiresAt = :expires',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
        ExpressionAttributeValues: {
          ':one': 1,
          ':limit': requestsPerSecond,
          ':expires': second + 1 + MCP_RATE_WINDOW_RETENTION_SECONDS,
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
