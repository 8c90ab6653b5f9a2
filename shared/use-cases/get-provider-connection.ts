import { getProviderConnection as readConnection } from '#domain/provider-connections.ts';
import type { getProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { type ApiLocation, toProviderConnection } from './provider-connection-resource.ts';

type Endpoint = typeof getProviderConnectionEndpoint;

/**
 * 1. Read the connection (one GetItem); another organization's, or an unknown one, is
 *    ProviderConnectionNotFound.
 * 2. Return it with its webhook URL.
 *
 * GET /public/v1/provider-connections/{id}; `outreach-admin provider get`.
 */
export async function getProviderConnection(
  input: OperationInput<Endpoint> & ApiLocation,
): Promise<OperationOutput<Endpoint>> {
  return toProviderConnection(await readConnection(input.orgId, input.path.id), input.baseUrl());
}
