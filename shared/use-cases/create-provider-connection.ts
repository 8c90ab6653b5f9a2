import { getOrganization } from '#domain/organizations.ts';
import { connectProvider } from '#domain/provider-keys.ts';
import type { createProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { type ApiLocation, toProviderConnection } from './provider-connection-resource.ts';

type Endpoint = typeof createProviderConnectionEndpoint;

/**
 * 1. Check the base URL, when given, against the SSRF rules (ProviderBaseUrlRefused).
 * 2. Refuse a 21st connection of the organization (ProviderConnectionLimitReached).
 * 3. Seal the API key and store the connection.
 * 4. Return the connection with its webhook URL (never the key).
 *
 * POST /public/v1/provider-connections; `outreach-admin provider connect` through
 * {@link createProviderConnectionForOrganization}.
 */
export async function createProviderConnection(
  input: OperationInput<Endpoint> & ApiLocation,
): Promise<OperationOutput<Endpoint>> {
  const record = await connectProvider(input.orgId, {
    provider: input.body.provider,
    apiKey: input.body.api_key,
    baseUrl: input.body.base_url ?? null,
  });
  return toProviderConnection(record, input.baseUrl());
}

/** As {@link createProviderConnection}, for an organization the operator names (OrganizationNotFound first). */
export async function createProviderConnectionForOrganization(
  input: OperationInput<Endpoint> & ApiLocation,
): Promise<OperationOutput<Endpoint>> {
  await getOrganization(input.orgId);
  return createProviderConnection(input);
}
