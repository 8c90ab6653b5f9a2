/**
 * Request rate limits, one definition for the deployed API (stage throttling
 * and API Gateway usage plans) and the local gateway, which enforces the same
 * token buckets. The spec leaves the numbers to the operator ("higher rate
 * limits are arranged with the operator"); docs/decisions.md explains these.
 */

/** A token bucket: `rateLimit` requests per second on average, `burstLimit` at once. */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/** The whole stage, every route and every caller together. */
export const STAGE_THROTTLE: Throttle = { rateLimit: 1000, burstLimit: 2000 };

/**
 * Each client address, before anything else (a WAF rate-based rule in front
 * of the deployed stage, the same bucket in the local gateway): an anonymous
 * flood from one address is cut before it spends the stage's bucket, so one
 * client cannot throttle every tenant. A quarter of the stage; an
 * organization that needs its whole default rate calls from more than one
 * address (docs/deploy.md).
 */
export const CLIENT_ADDRESS_THROTTLE: Throttle = { rateLimit: 250, burstLimit: 500 };

/** The WAF counts requests per address over a window rather than in a bucket: the same average rate. */
export const CLIENT_ADDRESS_WINDOW_SECONDS = 60;
export const CLIENT_ADDRESS_LIMIT_PER_WINDOW =
  CLIENT_ADDRESS_THROTTLE.rateLimit * CLIENT_ADDRESS_WINDOW_SECONDS;

/**
 * Each organization's share unless the operator arranged more: half the stage,
 * so one runaway client cannot take all of it, and far above what an
 * integration or an interactive client needs.
 */
export const DEFAULT_ORGANIZATION_THROTTLE: Throttle = { rateLimit: 500, burstLimit: 1000 };

/** Bounds an operator may set for one organization (API Gateway's default account quota). */
export const MAX_ORGANIZATION_THROTTLE: Throttle = { rateLimit: 10_000, burstLimit: 5000 };

const USAGE_IDENTIFIER = /^outreach-([A-Za-z0-9]+)-org-([1-9][0-9]{0,15})$/;

/**
 * The value of the organization's API Gateway API key for one REST API, which
 * the authorizer returns as `usageIdentifierKey` so API Gateway applies the
 * usage plan that key belongs to. Callers never send it (the API's key source
 * is the authorizer), so it is an identifier, not a secret; deriving it from
 * the API and organization ids spares the authorizer a read, and the API id
 * keeps two deployments in one account apart (key values are unique per
 * region). At least 20 characters, as API Gateway requires of key values.
 */
export const usageIdentifierKeyOf = (apiId: string, orgId: number): string =>
  `outreach-${apiId}-org-${orgId}`;

/** The organization a usage identifier key belongs to, or null for anything else. */
export function organizationOfUsageIdentifierKey(key: string): number | null {
  const match = USAGE_IDENTIFIER.exec(key);
  return match ? Number(match[2]) : null;
}
