import { getAnalyticsOverview as readAnalyticsOverview } from '#domain/analytics.ts';
import type { analyticsOverviewEndpoint } from '#schemas/campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof analyticsOverviewEndpoint;

/**
 * 1. Read the organization's counters, kept at write time (one GetItem).
 * 2. Return them as the analytics overview (zeros for an organization with no activity yet).
 *
 * GET /public/v1/analytics/overview; the MCP tool `get_analytics_overview`.
 */
export async function getAnalyticsOverview({
  orgId,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  return readAnalyticsOverview(orgId);
}
