import { defineEndpoint } from '#api/http/endpoint.ts';
import { credentialAnswers } from '#platform/secrets.ts';
import { createProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import { createProviderConnection } from '#use-cases/create-provider-connection.ts';

/** POST /public/v1/provider-connections — seals the API key and answers the webhook URL to paste into the provider. */
export const handler = defineEndpoint(
  createProviderConnectionEndpoint,
  (input) => createProviderConnection(input),
  {
    answers: credentialAnswers,
  },
);
