import { getAnalyticsOverview as readAnalyticsOverview } from '#domain/analytics.ts';
import { listCampaigns, toCampaignDetail } from '#domain/campaigns.ts';
import type { AnalyticsOverview, CampaignDetail } from '#schemas/resources.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the organization's analytics counters (one GetItem).
 * 2. Read its campaigns with their stats and status counts (one Query).
 *
 * The dashboard's overview page.
 */
export async function readDashboardOverview({
  orgId,
}: ForOrganization): Promise<{ overview: AnalyticsOverview; campaigns: CampaignDetail[] }> {
  const [overview, campaigns] = await Promise.all([readAnalyticsOverview(orgId), listCampaigns(orgId)]);
  return { overview, campaigns: campaigns.map(toCampaignDetail) };
}
