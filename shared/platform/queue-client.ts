import { SQSClient } from '@aws-sdk/client-sqs';
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
