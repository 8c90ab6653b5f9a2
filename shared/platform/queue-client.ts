import { type MessageAttributeValue, SQSClient } from '@aws-sdk/client-sqs';
import { deadLetterUrlVariable, type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { type Configuration, ConfigurationError, configuration } from './config.ts';
import {
  awsClientOptions,
  awsSettings,
  lazyClient,
  perConfiguration,
  serviceAwsClient,
} from './configured.ts';

/**
 * An SQS client for the configuration; its endpoint is the configuration's
 * (fauxqs locally) rather than the queue URL's host, which a local emulator
 * cannot make resolvable.
 */
export function createQueueClient(config: Configuration): SQSClient {
  return serviceAwsClient(
    new SQSClient({
      maxAttempts: 3,
      useQueueUrlAsEndpoint: false,
      ...awsClientOptions(config.aws, config.aws.endpoints.sqs),
    }),
  );
}

/** The process's SQS client, built on first use from the configuration (once per cold start on Lambda). */
export const sqs: SQSClient = lazyClient(
  perConfiguration((config) => awsSettings(config, config.aws.endpoints.sqs), createQueueClient),
);

/** The URL of a queue (on Lambda, from the environment variable its definition names). */
export function queueUrl(queue: QueueName): string {
  const url = configuration().queues[queue].url;
  if (url === undefined) {
    throw new ConfigurationError(
      `The configuration has no URL for the ${queue} queue (${queueDefinitions[queue].urlVariable})`,
    );
  }
  return url;
}

/** The URL of a queue's dead-letter queue (the CLI has it from the stack's outputs). */
export function deadLetterQueueUrl(queue: QueueName): string {
  const url = configuration().queues[queue].deadLetterUrl;
  if (url === undefined) {
    throw new ConfigurationError(
      `The configuration has no URL for the ${queue} dead-letter queue (${deadLetterUrlVariable(queue)})`,
    );
  }
  return url;
}

/**
 * Each UTF-16 unit a queue refuses in a message body. SQS allows #x9 | #xA | #xD | #x20 to #xD7FF |
 * #xE000 to #xFFFD | #x10000 to #x10FFFF and refuses a message with anything else
 * (InvalidMessageContents; https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/sqs/aws.sdk.kotlin.services.sqs.model/-send-message-request/message-body.html).
 * The local emulator (fauxqs) checks the same ranges one UTF-16 unit at a time, so it also refuses
 * both halves of a character beyond the Basic Multilingual Plane (emoji); read per unit here too, so
 * that a body either queue takes is one the other takes.
 */
const REFUSED_UNIT = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd]/g;

/**
 * A JSON text as a queue message body: each unit a queue refuses written as
 * its `\uXXXX` escape, which is the same JSON value (in valid JSON such units
 * can only be inside strings), and nothing else touched, so a body grows only
 * by what must change: U+FFFE and U+FFFF (3 bytes become 6), characters beyond
 * the Basic Multilingual Plane (4 bytes become 12), lone surrogates. Every
 * producer sends its JSON through this, so no text a payload carries makes a
 * send fail.
 */
export const queueMessageBody = (json: string): string =>
  json.replace(REFUSED_UNIT, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A message's size as SQS counts it against the queue's maximum: the body's
 * UTF-8 bytes, and each attribute's name, type and value (https://boto3.amazonaws.com/v1/documentation/api/1.41.0/reference/services/sqs/message/message_attributes.html).
 */
export function queueMessageBytes(
  body: string,
  attributes: Readonly<Record<string, MessageAttributeValue>> = {},
): number {
  let bytes = Buffer.byteLength(body);
  for (const [name, value] of Object.entries(attributes)) {
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value.DataType ?? '');
    bytes += Buffer.byteLength(value.StringValue ?? '') + (value.BinaryValue?.byteLength ?? 0);
  }
  return bytes;
}
