import type { AnalyticsOverview } from '#schemas/resources.ts';
import { organizations } from '#store/organizations.ts';

/** The organization's analytics overview: one read of the counters kept at write time. */
export async function getAnalyticsOverview(orgId: number): Promise<AnalyticsOverview> {
  const counts = await organizations.getAnalytics(orgId);
  return {
    total_campaigns: counts.totalCampaigns,
    total_contacts_sent: counts.totalContactsSent,
    total_contacts_opened: counts.totalContactsOpened,
    total_contacts_replied: counts.totalContactsReplied,
    total_contacts_scheduled: counts.totalContactsScheduled,
    total_bounced: counts.totalBounced,
    total_unsubscribed: counts.totalUnsubscribed,
  };
}
