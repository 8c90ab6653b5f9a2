import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { ApiHandler } from '#api/http/endpoint.ts';

/**
 * Invokes an API handler in-process with the REST proxy event API Gateway
 * would send after the authorizer accepted a read-write key of `orgId`.
 */
export async function invoke(
  handler: ApiHandler,
  request: {
    orgId: number;
    path?: Record<string, string>;
    query?: Record<string, string>;
    body?: unknown;
    headers?: Record<string, string>;
  },
) {
  const event = {
    headers: request.headers ?? {},
    pathParameters: request.path ?? null,
    queryStringParameters: request.query ?? null,
    body:
      request.body === undefined
        ? null
        : typeof request.body === 'string'
          ? request.body
          : JSON.stringify(request.body),
    isBase64Encoded: false,
    requestContext: { requestId: 'test', authorizer: { orgId: String(request.orgId), scope: 'read-write' } },
  } as unknown as APIGatewayProxyEvent;
  const result = await handler(event, { awsRequestId: 'test' } as Context);
  return { status: result.statusCode, body: JSON.parse(result.body) };
}
