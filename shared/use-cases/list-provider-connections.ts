import { listProviderConnections as readConnections } from '#domain/provider-connections.ts';
import type { listProviderConnectionsEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { type ApiLocation, type CallerScope, providerConnectionFor } from './provider-connection-resource.ts';

type Endpoint = typeof listProviderConnectionsEndpoint;

/**
 * 1. Read the organization's connections (one Query; at most 20).
 * 2. Return them by id with their webhook URLs, which a `read` caller is not answered (a write credential).
 *
 * GET /public/v1/provider-connections; `outreach-admin provider list`.
 */
export async function listProviderConnections(
  input: OperationInput<Endpoint> & ApiLocation & CallerScope,
): Promise<OperationOutput<Endpoint>> {
  const records = await readConnections(input.orgId);
  return { connections: await Promise.all(records.map((record) => providerConnectionFor(record, input))) };
}
