import { defineEndpoint } from '#api/http/endpoint.ts';
import { credentialAnswers } from '#platform/secrets.ts';
import { rotateWebhookSecretEndpoint } from '#schemas/webhooks.ts';
import { rotateWebhookSecret } from '#use-cases/rotate-webhook-secret.ts';

/** POST /public/v1/webhooks/{id}/rotate-secret — a new secret, shown this once; the old one signs for 24 h more. */
export const handler = defineEndpoint(rotateWebhookSecretEndpoint, (input) => rotateWebhookSecret(input), {
  answers: credentialAnswers,
});
