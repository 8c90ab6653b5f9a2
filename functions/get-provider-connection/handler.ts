import { defineEndpoint } from '#api/http/endpoint.ts';
import { getProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import { getProviderConnection } from '#use-cases/get-provider-connection.ts';

/** GET /public/v1/provider-connections/{id} */
export const handler = defineEndpoint(getProviderConnectionEndpoint, (input) => getProviderConnection(input));
