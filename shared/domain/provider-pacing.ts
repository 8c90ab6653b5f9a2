import { createHash } from 'node:crypto';
import type { Provider } from '#definitions/providers.ts';
import { configuration } from '#platform/config.ts';
import type { ProviderFacts } from '#providers/contract.ts';
import { enrollments, type PacingBudget } from '#store/enrollments.ts';
import type { ProviderConnectionRecord } from '#store/provider-connections.ts';

/**
 * How the calls to a provider keep below its documented rate limit
 * (docs/providers.md, Pacing and provider failures): whose budget a
 * connection's calls draw from, and the wait for its next slot. Loaded by a
 * provider session when it opens (enrollment.ts), with the client.
 */

/**
 * Whose request budget a connection's calls take their slots from: the
 * provider workspace's when its credential check named one (Instantly's rate
 * limit is the workspace's, whoever calls: every connection to it, of any
 * organization, shares one budget), else the connection's own. A workspace
 * reached at another base URL than the provider's own is another budget: an
 * API at an address the organization chose names its workspaces itself, and
 * must not hold back the connections to the provider's real one.
 */
export function pacingBudgetOf(connection: ProviderConnectionRecord): PacingBudget {
  if (connection.workspaceId === undefined) {
    return { orgId: connection.orgId, connectionId: connection.connectionId };
  }
  const workspace =
    connection.baseUrl === null
      ? connection.workspaceId
      : `${connection.workspaceId}@${createHash('sha256').update(connection.baseUrl).digest('hex').slice(0, 16)}`;
  return { provider: connection.provider, workspace };
}

/**
 * Waits for the budget's next request slot: one request every
 * `perMs / (requests − 1)` milliseconds, shared by every consumer through one
 * conditional UpdateItem, so no window of the provider's length holds more
 * than its limit. The limit is the provider's documented one, unless the
 * configuration names another (`providerRateLimits`: only a local stack's
 * tests that do not test pacing, whose emulators enforce the same figure).
 */
export function pacer(
  budget: PacingBudget,
  provider: Provider,
  facts: ProviderFacts,
  sleep: (ms: number) => Promise<void>,
): () => Promise<void> {
  const { requests, perMs } = configuration().providerRateLimits?.[provider] ?? facts.rateLimit;
  const intervalMs = Math.ceil(perMs / Math.max(1, requests - 1));
  let seen: number | null = null;
  return async () => {
    for (;;) {
      const taken = await enrollments.takeRequestSlot(budget, intervalMs, seen, Date.now());
      if (taken.slot !== null) {
        seen = taken.slot + intervalMs;
        const wait = taken.slot - Date.now();
        if (wait > 0) await sleep(wait);
        return;
      }
      seen = taken.seen;
    }
  };
}
