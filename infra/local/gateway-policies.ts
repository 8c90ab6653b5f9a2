import type { APIGatewayAuthorizerResult } from 'aws-lambda';

/**
 * The REQUEST authorizer's outcomes, and how the local gateway evaluates the
 * IAM policy an authorizer returns against a method ARN, as API Gateway does.
 */

export type AuthorizerOutcome =
  | {
      kind: 'policy';
      context: Record<string, string | number | boolean>;
      principalId: string;
      policy: APIGatewayAuthorizerResult['policyDocument'];
      usageIdentifierKey: string | null;
    }
  | { kind: 'unauthorized' }
  | { kind: 'failure' };

/** Resource patterns compiled once: the cached policies are evaluated on every request. */
const resourcePatterns = new Map<string, RegExp>();
const MAX_RESOURCE_PATTERNS = 1_000;

/** Whether an IAM policy statement's resource pattern covers the method ARN. */
function resourceMatches(pattern: string, methodArn: string): boolean {
  let regex = resourcePatterns.get(pattern);
  if (!regex) {
    regex = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    if (resourcePatterns.size >= MAX_RESOURCE_PATTERNS) resourcePatterns.clear();
    resourcePatterns.set(pattern, regex);
  }
  return regex.test(methodArn);
}

export function allows(policy: APIGatewayAuthorizerResult['policyDocument'], methodArn: string): boolean {
  let allowed = false;
  for (const statement of policy.Statement) {
    const resources = 'Resource' in statement ? [statement.Resource].flat() : [];
    if (!resources.some((resource) => resourceMatches(String(resource), methodArn))) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}
