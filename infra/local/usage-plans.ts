import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  CLIENT_ADDRESS_THROTTLE,
  DEFAULT_ORGANIZATION_THROTTLE,
  organizationOfUsageIdentifierKey,
  STAGE_THROTTLE,
  type Throttle,
} from '#definitions/rate-limits.ts';
import { organizationStore } from '#store/organizations.ts';
import type { GatewayThrottling } from './gateway.ts';

/** How long a looked-up plan is reused; on AWS a moved key also takes a moment to count. */
const PLAN_CACHE_MS = 5000;

/**
 * The local stand-in for API Gateway's usage plans: an organization's plan is
 * the rate limit recorded on its organization item (`outreach-admin org set
 * --rate N --burst M`), else the default plan. It reads through a client of
 * its own, as API Gateway is not the service: the service's DynamoDB request
 * counts stay the service's.
 */
export function localThrottling(
  client: DynamoDBClient,
  tableName: string,
  clientAddress: Throttle = CLIENT_ADDRESS_THROTTLE,
): GatewayThrottling {
  const table = { name: tableName, client: DynamoDBDocumentClient.from(client) };
  const organizations = organizationStore(() => table);
  const cache = new Map<string, { throttle: Throttle; expiresAt: number }>();
  return {
    clientAddress,
    stage: STAGE_THROTTLE,
    async usagePlanOf(usageIdentifierKey) {
      const cached = cache.get(usageIdentifierKey);
      if (cached && cached.expiresAt > Date.now()) return cached.throttle;
      const orgId = organizationOfUsageIdentifierKey(usageIdentifierKey);
      const organization = orgId === null ? null : await organizations.get(orgId);
      const throttle = organization?.rateLimit ?? DEFAULT_ORGANIZATION_THROTTLE;
      cache.set(usageIdentifierKey, { throttle, expiresAt: Date.now() + PLAN_CACHE_MS });
      return throttle;
    },
  };
}
