import { getAnalyticsOverview } from '#shared/domain/analytics.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { analyticsOverviewEndpoint } from '#shared/schemas/campaigns.ts';

/** GET /public/v1/analytics/overview */
export const handler = defineEndpoint(analyticsOverviewEndpoint, async ({ orgId }) =>
  getAnalyticsOverview(orgId),
);
