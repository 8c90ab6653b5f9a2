import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { AnalyticsOverview } from '#schemas/resources.ts';
import { keys } from '#store/keys.ts';

/** The organization's analytics overview: one read of the counters kept at write time. */
export async function getAnalyticsOverview(orgId: number): Promise<AnalyticsOverview> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName(), Key: keys.analytics(orgId) }));
  const count = (name: string) => Number(Item?.[name] ?? 0);
  return {
    total_campaigns: count('totalCampaigns'),
    total_contacts_sent: count('totalContactsSent'),
    total_contacts_opened: count('totalContactsOpened'),
    total_contacts_replied: count('totalContactsReplied'),
    total_contacts_scheduled: count('totalContactsScheduled'),
    total_bounced: count('totalBounced'),
    total_unsubscribed: count('totalUnsubscribed'),
  };
}
