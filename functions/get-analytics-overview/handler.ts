import { defineEndpoint } from '#api/http/endpoint.ts';
import { getAnalyticsOverview } from '#domain/analytics.ts';
import { analyticsOverviewEndpoint } from '#schemas/campaigns.ts';

/** GET /public/v1/analytics/overview */
export const handler = defineEndpoint(analyticsOverviewEndpoint, async ({ orgId }) =>
  getAnalyticsOverview(orgId),
);
