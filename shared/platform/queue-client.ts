import { SQSClient } from '@aws-sdk/client-sqs';
import { deadLetterUrlVariable, type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { requiredEnv } from './config.ts';
import { tracer } from './observability.ts';

/**
 * The SQS client, created once per cold start; its endpoint comes from the
 * SDK's own configuration (`AWS_ENDPOINT_URL_SQS` locally) rather than from the
 * queue URL's host, which a local emulator cannot make resolvable.
 */
export const sqs = tracer.captureAWSv3Client(new SQSClient({ maxAttempts: 3, useQueueUrlAsEndpoint: false }));

/** The URL of a queue, from the environment variable its definition names. */
export const queueUrl = (queue: QueueName): string => requiredEnv(queueDefinitions[queue].urlVariable);

/** The URL of a queue's dead-letter queue. */
export const deadLetterQueueUrl = (queue: QueueName): string => requiredEnv(deadLetterUrlVariable(queue));
