import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { PROVIDER_WEBHOOK_ATTRIBUTES } from '#definitions/queues.ts';
import { connectionOfWebhook } from '#domain/provider-connections.ts';
import { queueUrl, sqs } from '#platform/queue-client.ts';
import type { ProviderWebhookMessage } from '#schemas/provider-webhook-message.ts';

/** What the inbound endpoint was sent: the URL's parts and the body as text. */
export interface ProviderWebhookDelivery {
  readonly organization: string;
  readonly connection: string;
  readonly token: string;
  readonly body: string;
}

/** What became of it: queued, or why not (the adapter answers 401 and 400). */
export type ProviderWebhookAcceptance =
  | { outcome: 'queued' }
  | { outcome: 'unknown-connection' }
  | { outcome: 'malformed'; reason: string };

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;

/**
 * A JSON text with every character beyond ASCII written as its `\uXXXX`
 * escape: the same JSON value (such characters can only be inside strings),
 * in characters every queue accepts. SQS refuses U+FFFE and U+FFFF in a
 * message body, which a JSON string may hold, and the local emulator refuses
 * every character beyond the Basic Multilingual Plane (emoji). At most three
 * times as long: the queue takes messages of up to 1 MiB.
 */
const asciiJson = (json: string): string =>
  json.replace(/[\u007f-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * 1. Find the connection the URL names and check its token (one GetItem and a tag): an unknown
 *    connection and a wrong or rotated token are alike `unknown-connection`, and nothing is written.
 * 2. The body must be a JSON object or array (`malformed` otherwise).
 * 3. Smartlead signs with the `secret_key` its webhook was given: when the payload has one, it must
 *    be the URL's token (docs/providers.md).
 * 4. Queue the payload as received, with the connection and the time, for the consumer
 *    (record-provider-webhook.ts); nothing is matched or recorded here, so the answer is fast.
 *
 * POST /provider-webhooks/{organization}/{connection}/{token}.
 */
export async function acceptProviderWebhook(
  delivery: ProviderWebhookDelivery,
): Promise<ProviderWebhookAcceptance> {
  if (!POSITIVE_INTEGER.test(delivery.organization) || !POSITIVE_INTEGER.test(delivery.connection)) {
    return { outcome: 'unknown-connection' };
  }
  const connection = await connectionOfWebhook(
    Number(delivery.organization),
    Number(delivery.connection),
    delivery.token,
  );
  if (!connection) return { outcome: 'unknown-connection' };
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.body);
  } catch {
    return { outcome: 'malformed', reason: 'The body is not valid JSON' };
  }
  if (typeof payload !== 'object' || payload === null) {
    return { outcome: 'malformed', reason: 'The body must be a JSON object' };
  }
  if (connection.provider === 'smartlead' && 'secret_key' in payload) {
    const secret = (payload as { secret_key: unknown }).secret_key;
    if (secret !== delivery.token) return { outcome: 'unknown-connection' };
  }
  const message: Omit<ProviderWebhookMessage, 'body'> = {
    orgId: connection.orgId,
    connectionId: connection.connectionId,
    provider: connection.provider,
    receivedAt: new Date().toISOString(),
  };
  // The body, the rest beside it as attributes: escaping the body into a JSON envelope could double its size.
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl('providerEvents'),
      MessageBody: asciiJson(delivery.body),
      MessageAttributes: Object.fromEntries(
        PROVIDER_WEBHOOK_ATTRIBUTES.map((name) => [
          name,
          { DataType: 'String', StringValue: String(message[name]) },
        ]),
      ),
    }),
  );
  return { outcome: 'queued' };
}
