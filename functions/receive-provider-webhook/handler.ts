import { defineHttpHandler, jsonResponse } from '#api/http/endpoint.ts';
import { JSON_TOO_DEEP_MESSAGE, nestsDeeperThan } from '#api/http/json-depth.ts';
import { bodyText } from '#api/http/request.ts';
import { MAX_QUEUE_MESSAGE_BYTES } from '#definitions/queues.ts';
import { MAX_PROVIDER_WEBHOOK_BYTES } from '#definitions/request-limits.ts';
import { logger } from '#platform/logger.ts';
import { count } from '#platform/observability.ts';
import { acceptProviderWebhook } from '#use-cases/accept-provider-webhook.ts';

/**
 * POST /provider-webhooks/{organization}/{connection}/{token} — where a
 * provider posts its webhooks (docs/providers.md). No API key: the URL's
 * token is the credential. The body is bounded (in size, then in depth,
 * whatever the URL), checked and queued; the consumer does the rest, so the
 * provider gets its 200 fast.
 */
export const handler = defineHttpHandler(async (event) => {
  const body = bodyText(event);
  if (Buffer.byteLength(body) > MAX_PROVIDER_WEBHOOK_BYTES) {
    count('ProviderWebhookRejected');
    return jsonResponse(413, { message: `The body must be at most ${MAX_PROVIDER_WEBHOOK_BYTES} bytes` });
  }
  // Bounded in depth as the API's bodies are, before anything parses it: no documented provider payload
  // nests deeper than three levels, so a deeper one is an attack on recursive code, not a webhook.
  if (nestsDeeperThan(body)) {
    count('ProviderWebhookRejected');
    return jsonResponse(400, { message: JSON_TOO_DEEP_MESSAGE });
  }
  const parameters = event.pathParameters ?? {};
  const acceptance = await acceptProviderWebhook({
    organization: parameters.organization ?? '',
    connection: parameters.connection ?? '',
    token: parameters.token ?? '',
    body,
  });
  switch (acceptance.outcome) {
    case 'queued':
      return jsonResponse(200, { received: true });
    case 'malformed':
      count('ProviderWebhookRejected');
      return jsonResponse(400, { message: acceptance.reason });
    case 'too-large':
      count('ProviderWebhookRejected');
      return jsonResponse(413, {
        message: `The body, escaped for the queue, would be ${acceptance.messageBytes} bytes with its attributes: over the queue's ${MAX_QUEUE_MESSAGE_BYTES}`,
      });
    case 'unknown-connection':
      count('ProviderWebhookRejected');
      // Never which part was wrong: the URL is the credential.
      logger.warn('Provider webhook refused: unknown connection or wrong token');
      return jsonResponse(401, { message: 'Unknown connection or wrong token' });
  }
});
