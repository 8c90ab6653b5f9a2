import { defineEndpoint } from '#api/http/endpoint.ts';
import { listProviderConnectionsEndpoint } from '#schemas/provider-connections.ts';
import { listProviderConnections } from '#use-cases/list-provider-connections.ts';

/** GET /public/v1/provider-connections */
export const handler = defineEndpoint(listProviderConnectionsEndpoint, (input) =>
  listProviderConnections(input),
);
