import { defineEndpoint } from '#api/http/endpoint.ts';
import { analyticsOverviewEndpoint } from '#schemas/campaigns.ts';
import { getAnalyticsOverview } from '#use-cases/get-analytics-overview.ts';

/** GET /public/v1/analytics/overview */
export const handler = defineEndpoint(analyticsOverviewEndpoint, (input) => getAnalyticsOverview(input));
