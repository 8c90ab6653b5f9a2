import type { ProviderConnectionRecord } from '#store/provider-connections.ts';
import { recordConnectionHealth } from './connection-health.ts';
import { ProviderConnectionNotFound, ProviderUnreachable } from './errors.ts';
import { type BaseUrlCheckOptions, getProviderConnection, providerApiKeyOf } from './provider-connections.ts';

/**
 * A connection's credential check on demand (docs/providers.md, Connection
 * health): the same call as when the key was verified, with the stored key.
 * The provider's client, its transport and the SSRF rules are loaded with
 * provider-key-check.ts when a check runs (docs/architecture.md, Bundles).
 */

/**
 * Asks the provider whether it still accepts the connection's key and writes
 * the answer as the connection's health, whatever its last write: accepted is
 * `ok` (now the last success), refused is `failing` with the provider's words
 * (the check itself worked: the caller reads `status`). A provider that cannot
 * be reached or fails (5xx) marks it failing too and is ProviderUnreachable; a
 * busy one (429) judged nothing, so it is ProviderUnreachable and the health is
 * left as it was.
 */
export async function checkProviderConnection(
  orgId: number,
  connectionId: number,
  options: BaseUrlCheckOptions = {},
): Promise<ProviderConnectionRecord> {
  const record = await getProviderConnection(orgId, connectionId);
  const apiKey = await providerApiKeyOf(record);
  const { askProviderAboutKey, providerNameOf } = await import('./provider-key-check.ts');
  const verdict = await askProviderAboutKey(record.provider, record.baseUrl, apiKey, options);
  if (verdict.kind === 'busy') throw new ProviderUnreachable(providerNameOf(record.provider));
  const at = new Date().toISOString();
  const health =
    verdict.kind === 'accepted'
      ? ({ status: 'ok', at } as const)
      : ({ status: 'failing', at, message: verdict.message } as const);
  if (!(await recordConnectionHealth(record, health, { unlessRecent: false }))) {
    throw new ProviderConnectionNotFound(connectionId);
  }
  if (verdict.kind === 'unreachable') throw new ProviderUnreachable(providerNameOf(record.provider));
  return {
    ...record,
    status: health.status,
    healthWrittenAt: at,
    ...(health.status === 'ok' ? { lastSuccessAt: at } : { lastError: { message: health.message, at } }),
  };
}
