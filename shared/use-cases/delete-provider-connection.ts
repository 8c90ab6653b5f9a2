import { disconnectProvider } from '#domain/provider-connections.ts';
import type { deleteProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof deleteProviderConnectionEndpoint;

/**
 * 1. Delete the connection and count it out, in one transaction; an unknown one is
 *    ProviderConnectionNotFound. Its webhook URL is refused from now on.
 * 2. Return `{success: true}`.
 *
 * DELETE /public/v1/provider-connections/{id}; `outreach-admin provider disconnect`.
 */
export async function deleteProviderConnection(
  input: OperationInput<Endpoint>,
): Promise<OperationOutput<Endpoint>> {
  await disconnectProvider(input.orgId, input.path.id);
  return { success: true };
}
