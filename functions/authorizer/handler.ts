import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorizerDecision, readApiKeyHeader } from '#api/http/authorizer.ts';
import { verifyApiKey } from '#domain/api-keys.ts';
import { logger } from '#platform/logger.ts';
import { count, lambdaHandler } from '#platform/observability.ts';

/**
 * The REQUEST authorizer for `x-api-key`. A missing, malformed, unknown,
 * revoked or expired key is rejected with API Gateway's `Unauthorized` signal
 * (401); a valid one is allowed with its organization and scope in the
 * context. A failure to reach the table is a deliberate authorizer failure
 * (500), never a false 401 and never an unhandled error.
 */
export const handler = lambdaHandler(
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    let identity: Awaited<ReturnType<typeof verifyApiKey>>;
    try {
      identity = await verifyApiKey(readApiKeyHeader(event.headers));
    } catch (error) {
      logger.error('API key verification failed', { errorName: (error as Error).name });
      throw new Error('Authorizer failure');
    }
    if (!identity) {
      count('ApiKeyRejected');
      throw new Error('Unauthorized');
    }
    return authorizerDecision(event.methodArn, identity);
  },
);
