/**
 * Responses API Gateway generates itself (before or instead of a handler). The
 * CDK stack installs them as gateway responses and the local gateway answers
 * with the same ones, so both speak `{message}` JSON (with the request id and the RFC 9457 members)
 * with the same statuses.
 * `message: null` means "API Gateway's own error text"; `headers` are added to
 * the response (a throttled client is told when to try again).
 */
export const gatewayResponses = {
  UNAUTHORIZED: { statusCode: 401, message: 'Unauthorized' },
  // An authorizer Deny would be a 403; a bad key is an authentication failure, so it is 401 too.
  ACCESS_DENIED: { statusCode: 401, message: 'Unauthorized' },
  // API Gateway reports an unknown route (or an undefined method on a known one) as a missing token.
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, message: 'Not found' },
  RESOURCE_NOT_FOUND: { statusCode: 404, message: 'Not found' },
  REQUEST_TOO_LARGE: { statusCode: 413, message: 'Request body too large' },
  THROTTLED: { statusCode: 429, message: 'Too many requests', headers: { 'Retry-After': '1' } },
  QUOTA_EXCEEDED: { statusCode: 429, message: 'Too many requests', headers: { 'Retry-After': '60' } },
  // The authorizer named a usage identifier key that is in no usage plan: an organization the operator
  // did not provision (shared/admin/rate-limits.ts). The caller's key is fine, so this is our error, and
  // a 5xx reaches the alarms.
  INVALID_API_KEY: { statusCode: 500, message: 'Internal server error' },
  AUTHORIZER_FAILURE: { statusCode: 500, message: 'Internal server error' },
  AUTHORIZER_CONFIGURATION_ERROR: { statusCode: 500, message: 'Internal server error' },
  // The other types API Gateway names, each with the status it has by default, so that every answer's
  // problem details (RFC 9457 `status`, `type`) say the status it is sent with.
  BAD_REQUEST_PARAMETERS: { statusCode: 400, message: null },
  BAD_REQUEST_BODY: { statusCode: 400, message: null },
  UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, message: null },
  WAF_FILTERED: { statusCode: 403, message: 'Forbidden' },
  INVALID_SIGNATURE: { statusCode: 403, message: null },
  EXPIRED_TOKEN: { statusCode: 403, message: null },
  INTEGRATION_FAILURE: { statusCode: 504, message: null },
  INTEGRATION_TIMEOUT: { statusCode: 504, message: null },
  API_CONFIGURATION_ERROR: { statusCode: 500, message: 'Internal server error' },
  // A type API Gateway adds later: a 4xx is the client's (400), a 5xx ours (500).
  DEFAULT_4XX: { statusCode: 400, message: null },
  DEFAULT_5XX: { statusCode: 500, message: null },
} as const satisfies Record<
  string,
  { statusCode: number | null; message: string | null; headers?: Record<string, string> }
>;

export type GatewayResponseType = keyof typeof gatewayResponses;
