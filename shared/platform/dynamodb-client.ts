import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Configuration } from './config.ts';
import {
  awsClientOptions,
  awsSettings,
  lazyClient,
  perConfiguration,
  serviceAwsClient,
} from './configured.ts';

/** A DynamoDB document client for the configuration's region, credentials and endpoint (DynamoDB Local's locally). */
export function createDynamoClient(config: Configuration): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    serviceAwsClient(
      new DynamoDBClient({ maxAttempts: 3, ...awsClientOptions(config.aws, config.aws.endpoints.dynamodb) }),
    ),
    {
      marshallOptions: { removeUndefinedValues: true },
    },
  );
}

/**
 * The process's document client, built on first use from the configuration
 * (once per cold start on Lambda), so the same code path runs on Lambda and
 * against DynamoDB Local. Each call is a trace subsegment on Lambda.
 */
export const dynamo: DynamoDBDocumentClient = lazyClient(
  perConfiguration((config) => awsSettings(config, config.aws.endpoints.dynamodb), createDynamoClient),
);
