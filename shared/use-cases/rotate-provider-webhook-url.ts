import { rotateProviderWebhookUrl as rotate } from '#domain/provider-connections.ts';
import type { rotateProviderWebhookUrlEndpoint } from '#schemas/provider-connections.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { type ApiLocation, toProviderConnection } from './provider-connection-resource.ts';

type Endpoint = typeof rotateProviderWebhookUrlEndpoint;

/**
 * 1. Move the connection's URL generation on (one UpdateItem); an unknown one is
 *    ProviderConnectionNotFound. The previous URL is refused from now on (401).
 * 2. Return the connection with its new webhook URL, to paste into the provider.
 *
 * POST /public/v1/provider-connections/{id}/rotate-webhook-url; `outreach-admin provider rotate-webhook-url`.
 */
export async function rotateProviderWebhookUrl(
  input: OperationInput<Endpoint> & ApiLocation,
): Promise<OperationOutput<Endpoint>> {
  return toProviderConnection(await rotate(input.orgId, input.path.id), input.baseUrl());
}
