import { MCP_RATE_WINDOW_RETENTION_SECONDS } from '#definitions/mcp-limits.ts';
import { countClientRequest } from '#store/oauth-token-checks.ts';

/**
 * Counts one request of an OAuth client: a fixed window per client and second
 * of the clock, one counter item each, raised by one UpdateItem that returns
 * the window's count. Every Lambda instance shares the counter, so the limit
 * holds however many of them answer. The count is not conditioned on the
 * limit because the MCP function sends it while the token's standing (and so
 * an operator client's arranged rate) is still being read: one round trip
 * fewer on every request. Returns how many requests the client has sent in
 * this second, this one included: over its rate, the request is refused.
 */
export async function countMcpRequest(clientId: string): Promise<number> {
  const second = Math.floor(Date.now() / 1000);
  return countClientRequest(clientId, second, second + 1 + MCP_RATE_WINDOW_RETENTION_SECONDS);
}
