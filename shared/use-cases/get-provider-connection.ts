import { getProviderConnection as readConnection } from '#domain/provider-connections.ts';
import type { getProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { type ApiLocation, type CallerScope, providerConnectionFor } from './provider-connection-resource.ts';

type Endpoint = typeof getProviderConnectionEndpoint;

/**
 * 1. Read the connection (one GetItem); another organization's, or an unknown one, is
 *    ProviderConnectionNotFound.
 * 2. Return it with its webhook URL, which a `read` caller is not answered (a write credential).
 *
 * GET /public/v1/provider-connections/{id}; `outreach-admin provider get`.
 */
export async function getProviderConnection(
  input: OperationInput<Endpoint> & ApiLocation & CallerScope,
): Promise<OperationOutput<Endpoint>> {
  return providerConnectionFor(await readConnection(input.orgId, input.path.id), input);
}
