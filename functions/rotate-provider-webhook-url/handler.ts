import { defineEndpoint } from '#api/http/endpoint.ts';
import { credentialAnswers } from '#platform/secrets.ts';
import { rotateProviderWebhookUrlEndpoint } from '#schemas/provider-connections.ts';
import { rotateProviderWebhookUrl } from '#use-cases/rotate-provider-webhook-url.ts';

/** POST /public/v1/provider-connections/{id}/rotate-webhook-url — the previous URL is refused from now on. */
export const handler = defineEndpoint(
  rotateProviderWebhookUrlEndpoint,
  (input) => rotateProviderWebhookUrl(input),
  {
    answers: credentialAnswers,
  },
);
