import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { usageIdentifierKeyOf } from '#definitions/rate-limits.ts';
import { API_KEY_HEADER } from '#definitions/routes.ts';
import type { ApiKeyIdentity } from '#domain/api-keys.ts';
import { headerOf } from './request.ts';

/** Reads the API key header case-insensitively (API Gateway passes header names as sent). */
export const readApiKeyHeader = (
  headers: Record<string, string | undefined> | null | undefined,
): string | undefined => headerOf(headers, API_KEY_HEADER);

/**
 * The Allow policy for a verified key. It covers every method of the stage, not
 * just the called one, because API Gateway caches the decision per key and
 * reuses it for the key's next call to any route: what the key may call is
 * its scope, in the context next to the organization, which the endpoint
 * wrapper checks against the route's (`defineEndpoint`). The usage identifier
 * puts the call under the organization's usage plan (its rate limit).
 */
export function authorizerDecision(methodArn: string, identity: ApiKeyIdentity): APIGatewayAuthorizerResult {
  // methodArn: arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{method}/{path}
  const [arnPrefix = '', stage] = methodArn.split('/');
  const apiId = arnPrefix.split(':')[5] ?? '';
  return {
    principalId: `org:${identity.orgId}`,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arnPrefix}/${stage}/*` }],
    },
    context: { orgId: identity.orgId, keyId: identity.keyId, scope: identity.scope },
    usageIdentifierKey: usageIdentifierKeyOf(apiId, identity.orgId),
  };
}
