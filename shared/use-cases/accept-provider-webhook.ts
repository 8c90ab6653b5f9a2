import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { MAX_QUEUE_MESSAGE_BYTES, PROVIDER_WEBHOOK_ATTRIBUTES } from '#definitions/queues.ts';
import { connectionOfWebhook } from '#domain/provider-connections.ts';
import { queueMessageBody, queueMessageBytes, queueUrl, sqs } from '#platform/queue-client.ts';
import type { ProviderWebhookMessage } from '#schemas/provider-webhook-message.ts';

/** What the inbound endpoint was sent: the URL's parts and the body as text. */
export interface ProviderWebhookDelivery {
  readonly organization: string;
  readonly connection: string;
  readonly token: string;
  readonly body: string;
}

/** What became of it: queued, or why not (the adapter answers 401, 400 and 413). */
export type ProviderWebhookAcceptance =
  | { outcome: 'queued' }
  | { outcome: 'unknown-connection' }
  | { outcome: 'malformed'; reason: string }
  | { outcome: 'too-large'; messageBytes: number };

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;

/**
 * 1. Find the connection the URL names and check its token (one GetItem and a tag): an unknown
 *    connection and a wrong or rotated token are alike `unknown-connection`, and nothing is written.
 * 2. The body must be a JSON object or array (`malformed` otherwise).
 * 3. Smartlead signs with the `secret_key` its webhook was given: when the payload has one, it must
 *    be the URL's token (docs/providers.md).
 * 4. Queue the payload as received, with the connection and the time, for the consumer
 *    (record-provider-webhook.ts); nothing is matched or recorded here, so the answer is fast.
 *    What a queue refuses is escaped; a message still over the queue's limit is `too-large`.
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
  const body = queueMessageBody(delivery.body);
  const attributes = Object.fromEntries(
    PROVIDER_WEBHOOK_ATTRIBUTES.map((name) => [
      name,
      { DataType: 'String', StringValue: String(message[name]) },
    ]),
  );
  const messageBytes = queueMessageBytes(body, attributes);
  // Unreachable within MAX_PROVIDER_WEBHOOK_BYTES (escaping at most triples a body), but the queue, not
  // the inbound limit, is what refuses: a refusal would be a 500.
  if (messageBytes > MAX_QUEUE_MESSAGE_BYTES) return { outcome: 'too-large', messageBytes };
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl('providerEvents'),
      MessageBody: body,
      MessageAttributes: attributes,
    }),
  );
  return { outcome: 'queued' };
}
