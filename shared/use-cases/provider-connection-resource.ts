import type { ApiKeyScope } from '#definitions/routes.ts';
import { webhookUrlOf } from '#domain/provider-connections.ts';
import type { ProviderConnection, ProviderConnectionWithWebhookUrl } from '#schemas/provider-connections.ts';
import type { ProviderConnectionRecord } from '#store/provider-connections.ts';

/** A stored connection as the API shows it to a read-write caller: its webhook URL below `baseUrl`, never its API key. */
export async function toProviderConnection(
  record: ProviderConnectionRecord,
  baseUrl: string,
): Promise<ProviderConnectionWithWebhookUrl> {
  return { ...readableOf(record), webhook_url: await webhookUrlOf(record, baseUrl) };
}

/** What any caller may see of a connection: its health included (no secret in it). */
const readableOf = (record: ProviderConnectionRecord): ProviderConnection => ({
  id: record.connectionId,
  provider: record.provider,
  created_at: record.createdAt,
  base_url: record.baseUrl,
  status: record.status,
  last_success_at: record.lastSuccessAt,
  last_error: record.lastError,
});

/**
 * A stored connection as the caller may see it. Its webhook URL's token lets whoever holds it post
 * provider events for the organization (forged bounces move counters; a forged reply classified
 * Interested fires a signed Positive Reply to the subscribers): a write credential, which a `read`
 * caller (a read key, a dashboard viewer) is not answered (docs/decisions.md, Read-only credentials).
 */
export async function providerConnectionFor(
  record: ProviderConnectionRecord,
  caller: ApiLocation & CallerScope,
): Promise<ProviderConnection> {
  if (caller.scope === 'read-write') return toProviderConnection(record, caller.baseUrl());
  return readableOf(record);
}

/** What the use cases that show a connection need besides their input: where the API is reachable. */
export interface ApiLocation {
  /** The API's base URL, without a trailing slash (the HTTP adapter's request, the CLI's target). */
  readonly baseUrl: () => string;
}

/**
 * What the caller may do: `read-write` (a read-write key, a dashboard admin, the operator's CLI) is
 * answered the write credentials a resource carries; `read` (a read key, a viewer) is not.
 */
export interface CallerScope {
  readonly scope: ApiKeyScope;
}
