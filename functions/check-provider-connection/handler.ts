import { defineEndpoint } from '#api/http/endpoint.ts';
import { credentialAnswers } from '#platform/secrets.ts';
import { checkProviderConnectionEndpoint } from '#schemas/provider-connections.ts';
import { checkProviderConnection } from '#use-cases/check-provider-connection.ts';

/** POST /public/v1/provider-connections/{id}/check — the credential check on demand; the answer is the connection's health. */
export const handler = defineEndpoint(
  checkProviderConnectionEndpoint,
  (input) => checkProviderConnection(input),
  {
    answers: credentialAnswers,
  },
);
