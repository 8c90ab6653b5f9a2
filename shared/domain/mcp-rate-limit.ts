import { MCP_RATE_WINDOW_RETENTION_SECONDS } from '#definitions/mcp-limits.ts';
import { admitClientRequest } from '#store/oauth-token-checks.ts';

/**
 * Counts one request of an OAuth client against its rate: a fixed window per
 * client and second of the clock, one counter item each, raised by a
 * conditional UpdateItem that refuses to pass the limit. Every Lambda instance
 * shares the counter, so the limit holds however many of them answer.
 * Returns false when the client already used its rate in this second.
 */
export async function admitMcpRequest(clientId: string, requestsPerSecond: number): Promise<boolean> {
  const second = Math.floor(Date.now() / 1000);
  return admitClientRequest(
    clientId,
    second,
    requestsPerSecond,
    second + 1 + MCP_RATE_WINDOW_RETENTION_SECONDS,
  );
}
