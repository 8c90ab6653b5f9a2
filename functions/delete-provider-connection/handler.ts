import { defineEndpoint } from '#api/http/endpoint.ts';
import { deleteProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import { deleteProviderConnection } from '#use-cases/delete-provider-connection.ts';

/** DELETE /public/v1/provider-connections/{id} */
export const handler = defineEndpoint(deleteProviderConnectionEndpoint, (input) =>
  deleteProviderConnection(input),
);
