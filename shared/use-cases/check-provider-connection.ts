import { checkProviderConnection as check } from '#domain/provider-connection-check.ts';
import type { checkProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { type ApiLocation, toProviderConnection } from './provider-connection-resource.ts';

type Endpoint = typeof checkProviderConnectionEndpoint;

/**
 * 1. Read the connection (another organization's or an unknown one: ProviderConnectionNotFound)
 *    and open its API key.
 * 2. Ask the provider whether it accepts the key (its credential check, at the connection's base URL).
 * 3. Write the answer as the connection's health: accepted is `ok`, refused is `failing` with the
 *    provider's words; unreachable or failing (5xx) is `failing` and ProviderUnreachable; busy (429)
 *    changes nothing and is ProviderUnreachable.
 * 4. Return the connection with its health and webhook URL.
 *
 * POST /public/v1/provider-connections/{id}/check; `outreach-admin provider check`; the dashboard's
 * "Check now".
 */
export async function checkProviderConnection(
  input: OperationInput<Endpoint> & ApiLocation,
): Promise<OperationOutput<Endpoint>> {
  return toProviderConnection(await check(input.orgId, input.path.id), input.baseUrl());
}
