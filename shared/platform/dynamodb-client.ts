import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from './observability.ts';

/**
 * The DynamoDB document client, created once per cold start. The endpoint comes
 * from the SDK's own configuration (`AWS_ENDPOINT_URL_DYNAMODB` locally), so the
 * same code path runs on Lambda and against DynamoDB Local. Each call is a
 * trace subsegment on Lambda.
 */
export const dynamo = DynamoDBDocumentClient.from(
  tracer.captureAWSv3Client(new DynamoDBClient({ maxAttempts: 3 })),
  {
    marshallOptions: { removeUndefinedValues: true },
  },
);
