import { webhookUrlOf } from '#domain/provider-connections.ts';
import type { ProviderConnection } from '#schemas/provider-connections.ts';
import type { ProviderConnectionRecord } from '#store/provider-connections.ts';

/** A stored connection as the API shows it: its webhook URL below `baseUrl`, never its API key. */
export async function toProviderConnection(
  record: ProviderConnectionRecord,
  baseUrl: string,
): Promise<ProviderConnection> {
  return {
    id: record.connectionId,
    provider: record.provider,
    webhook_url: await webhookUrlOf(record, baseUrl),
    created_at: record.createdAt,
  };
}

/** What the use cases that show a connection need besides their input: where the API is reachable. */
export interface ApiLocation {
  /** The API's base URL, without a trailing slash (the HTTP adapter's request, the CLI's target). */
  readonly baseUrl: () => string;
}
