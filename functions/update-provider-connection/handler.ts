import { defineEndpoint } from '#api/http/endpoint.ts';
import { credentialAnswers } from '#platform/secrets.ts';
import { updateProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import { updateProviderConnection } from '#use-cases/update-provider-connection.ts';

/** PATCH /public/v1/provider-connections/{id} — a new API key, verified with the provider before it replaces the old. */
export const handler = defineEndpoint(
  updateProviderConnectionEndpoint,
  (input) => updateProviderConnection(input),
  {
    answers: credentialAnswers,
  },
);
