import { replaceProviderApiKey } from '#domain/provider-keys.ts';
import type { updateProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { type ApiLocation, toProviderConnection } from './provider-connection-resource.ts';

type Endpoint = typeof updateProviderConnectionEndpoint;

/**
 * 1. Read the connection (another organization's or an unknown one: ProviderConnectionNotFound).
 * 2. Ask the provider whether it accepts the new key, at the connection's base URL
 *    (ProviderKeyRefused, ProviderUnreachable: the old key stays).
 * 3. Seal the new key in place of the old; the webhook URL is kept.
 * 4. Return the connection with its webhook URL (never the key).
 *
 * PATCH /public/v1/provider-connections/{id}.
 */
export async function updateProviderConnection(
  input: OperationInput<Endpoint> & ApiLocation,
): Promise<OperationOutput<Endpoint>> {
  const record = await replaceProviderApiKey(input.orgId, input.path.id, input.body.api_key);
  return toProviderConnection(record, input.baseUrl());
}
