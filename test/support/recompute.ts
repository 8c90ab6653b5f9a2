import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { ANALYTICS_SHARDS } from '#store/counter-shards.ts';
import { keys } from '#store/keys.ts';

/**
 * Recomputes every maintained counter of an organization from its raw items,
 * from first principles (docs/decisions.md, Assignments), without the service's contribution
 * functions, so a bug shared by the write path and the recomputation cannot
 * hide. Reads use Query and GetItem only: the organization's campaigns (with
 * their counter shards), each campaign's assignments (gsi1 campaign-assignments
 * index) and messages (gsi1 campaign-messages index), the contact item of
 * every assignment and the analytics item with its shards. The maintained side
 * adds each item's shards to it, as the reads do (docs/scaling.md).
 *
 * `maintainedAndRecomputed` returns both sides in the same shape, so a test
 * asserts `expect(stored).toEqual(recomputed)` and a failure shows the diff.
 */

type Item = Record<string, unknown>;

/** Counter attributes of a campaign item: stats, status counts and the message total. */
const CAMPAIGN_COUNTERS = [
  'statSent',
  'statOpened',
  'statClicked',
  'statBounced',
  'statUnsubscribed',
  'statBlocked',
  'statPositiveReplied',
  'statusPendingApproval',
  'statusScheduled',
  'statusInProgress',
  'statusCompleted',
  'statusReplied',
  'statusBounced',
  'statusUnsubscribed',
  'messagesCount',
] as const;

/** Counter attributes of the analytics item. */
const ANALYTICS_COUNTERS = [
  'totalCampaigns',
  'totalContactsSent',
  'totalContactsOpened',
  'totalContactsReplied',
  'totalContactsScheduled',
  'totalBounced',
  'totalUnsubscribed',
] as const;

const STATUS_COUNTER: Record<string, (typeof CAMPAIGN_COUNTERS)[number]> = {
  'pending-approval': 'statusPendingApproval',
  scheduled: 'statusScheduled',
  'in-progress': 'statusInProgress',
  completed: 'statusCompleted',
  replied: 'statusReplied',
  bounced: 'statusBounced',
  unsubscribed: 'statusUnsubscribed',
};

/** A contact's eligibility-summary entry, as stored under `assignments.<id>`. */
export interface SummaryEntry {
  campaignId: number;
  sequenceId: number;
  channel: string;
  status: string;
  completedAt: string | null;
}

/** What is derived from each assignment item beyond the counters (kept consistent by the write path). */
export interface AssignmentDerived {
  /** Its number of sent messages. */
  sentCount: number;
  /** Whether its contact is blocked. */
  contactBlocked: boolean;
  /** Whether a received message of it has ever been classified positive. */
  positiveReplied: boolean;
  /** The status-index partition the contact filter reads it from. */
  statusIndex: string;
}

/** One side of the comparison. */
export interface CounterSnapshot {
  campaigns: Record<number, Record<string, number>>;
  analytics: Record<string, number>;
  /** Contact key → assignment id → summary entry. */
  contacts: Record<string, { assignments: Record<string, SummaryEntry>; sequences: Record<string, number> }>;
  assignments: Record<number, AssignmentDerived>;
}

/** The raw items of an organization that the counters are derived from. */
export interface RawOrganization {
  campaigns: Item[];
  /** Campaign id → its counter shards. */
  campaignShards: Map<number, Item[]>;
  assignments: Map<number, Item[]>;
  messages: Map<number, Item[]>;
  contacts: Map<string, Item>;
  analytics: Item | undefined;
  analyticsShards: Item[];
}

async function queryAll(input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await dynamo.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

const queryIndex = (partition: string) =>
  queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
  });

const getItem = async (key: Record<string, string>): Promise<Item | undefined> =>
  (await dynamo.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** The key of the contact an assignment item points to. */
const contactKeyOf = (orgId: number, assignment: Item) => {
  const contact = assignment.contact as { id: number; email: string | null };
  return keys.contact(orgId, { id: contact.id, email: contact.email });
};

/** Reads every item the organization's counters depend on (Query and GetItem, never Scan). */
export async function readRawOrganization(orgId: number): Promise<RawOrganization> {
  const { pk, skPrefix } = keys.campaignsOfOrganization(orgId);
  const campaignItems = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  const isShard = (item: Item) => String(item.sk).includes('#SHARD#');
  const campaigns = campaignItems.filter((item) => !isShard(item));
  const campaignShards = new Map<number, Item[]>();
  for (const campaign of campaigns) {
    const prefix = `${String(campaign.sk)}#SHARD#`;
    campaignShards.set(
      campaign.campaignId as number,
      campaignItems.filter((item) => String(item.sk).startsWith(prefix)),
    );
  }
  const assignments = new Map<number, Item[]>();
  const messages = new Map<number, Item[]>();
  const contacts = new Map<string, Item>();
  for (const campaign of campaigns) {
    const campaignId = campaign.campaignId as number;
    assignments.set(campaignId, await queryIndex(keys.campaignAssignmentsIndex(orgId, campaignId).gsi1pk));
    messages.set(campaignId, await queryIndex(keys.campaignMessagesIndex(orgId, campaignId).gsi1pk));
  }
  for (const assignment of [...assignments.values()].flat()) {
    const key = contactKeyOf(orgId, assignment);
    if (contacts.has(key.pk)) continue;
    const contact = await getItem(key);
    if (!contact) throw new Error(`Assignment ${String(assignment.assignmentId)} has no contact item`);
    contacts.set(key.pk, contact);
  }
  const analyticsShards: Item[] = [];
  for (let shard = 0; shard < ANALYTICS_SHARDS; shard++) {
    const item = await getItem(keys.analyticsShard(orgId, shard));
    if (item) analyticsShards.push(item);
  }
  return {
    campaigns,
    campaignShards,
    assignments,
    messages,
    contacts,
    analytics: await getItem(keys.analytics(orgId)),
    analyticsShards,
  };
}

/** The counters of an item and its shards, added up. */
const counters = (items: (Item | undefined)[], names: readonly string[]): Record<string, number> =>
  Object.fromEntries(
    names.map((name) => [name, items.reduce((sum, item) => sum + Number(item?.[name] ?? 0), 0)]),
  );

/** The counters and summaries as the service maintained them. */
export function maintained(raw: RawOrganization): CounterSnapshot {
  const snapshot: CounterSnapshot = {
    campaigns: {},
    analytics: counters([raw.analytics, ...raw.analyticsShards], ANALYTICS_COUNTERS),
    contacts: {},
    assignments: {},
  };
  for (const campaign of raw.campaigns) {
    const campaignId = campaign.campaignId as number;
    snapshot.campaigns[campaignId] = counters(
      [campaign, ...(raw.campaignShards.get(campaignId) ?? [])],
      CAMPAIGN_COUNTERS,
    );
  }
  for (const [pk, contact] of raw.contacts) {
    snapshot.contacts[pk] = {
      assignments: Object.fromEntries(
        Object.entries((contact.assignments as Record<string, SummaryEntry>) ?? {}).map(([id, entry]) => [
          id,
          {
            campaignId: entry.campaignId,
            sequenceId: entry.sequenceId,
            channel: entry.channel,
            status: entry.status,
            completedAt: entry.completedAt ?? null,
          },
        ]),
      ),
      sequences: (contact.sequenceAssignments as Record<string, number>) ?? {},
    };
  }
  for (const assignment of [...raw.assignments.values()].flat()) {
    snapshot.assignments[assignment.assignmentId as number] = {
      sentCount: Number(assignment.sentCount ?? 0),
      contactBlocked: assignment.contactBlocked === true,
      positiveReplied: assignment.positiveReplied === true,
      statusIndex: String(assignment.gsi2pk),
    };
  }
  return snapshot;
}

/**
 * The same counters recomputed from the raw items: an assignment counts as
 * sent with at least one sent message, opened with at least one open (on its
 * messages or recorded on it without a message), clicked with a click, blocked
 * when its contact item is blocked, positively replied when one of its
 * received messages is classified positive or ever was (the message's
 * `everPositive`); status counts by its status; totals over all campaigns.
 */
export function recomputed(orgId: number, raw: RawOrganization): CounterSnapshot {
  const snapshot: CounterSnapshot = {
    campaigns: {},
    analytics: Object.fromEntries(ANALYTICS_COUNTERS.map((name) => [name, 0])),
    contacts: {},
    assignments: {},
  };
  const analytics = snapshot.analytics;
  analytics.totalCampaigns = raw.campaigns.length;
  for (const pk of raw.contacts.keys()) snapshot.contacts[pk] = { assignments: {}, sequences: {} };

  for (const campaign of raw.campaigns) {
    const campaignId = campaign.campaignId as number;
    const counts: Record<string, number> = Object.fromEntries(CAMPAIGN_COUNTERS.map((name) => [name, 0]));
    const messages = raw.messages.get(campaignId) ?? [];
    counts.messagesCount = messages.length;
    const sentMessages = new Map<number, number>();
    const messageOpens = new Map<number, number>();
    const positiveReplies = new Set<number>();
    for (const message of messages) {
      const assignmentId = message.assignmentId as number;
      if (
        message.messageType === 'received' &&
        (message.responseType === 'positive' || message.everPositive === true)
      )
        positiveReplies.add(assignmentId);
      if (message.messageType === 'sent')
        sentMessages.set(assignmentId, (sentMessages.get(assignmentId) ?? 0) + 1);
      messageOpens.set(assignmentId, (messageOpens.get(assignmentId) ?? 0) + Number(message.openCount ?? 0));
    }
    for (const assignment of raw.assignments.get(campaignId) ?? []) {
      const assignmentId = assignment.assignmentId as number;
      const status = assignment.status as string;
      const contactKey = contactKeyOf(orgId, assignment).pk;
      const blocked = raw.contacts.get(contactKey)?.blocked === true;
      const sent = (sentMessages.get(assignmentId) ?? 0) > 0;
      const opened = (messageOpens.get(assignmentId) ?? 0) > 0 || Number(assignment.openCount ?? 0) > 0;
      const statusCounter = STATUS_COUNTER[status];
      if (!statusCounter) throw new Error(`Assignment ${assignmentId} has an unknown status ${status}`);
      counts[statusCounter]! += 1;
      if (sent) counts.statSent! += 1;
      if (opened) counts.statOpened! += 1;
      if (Number(assignment.clickCount ?? 0) > 0) counts.statClicked! += 1;
      if (status === 'bounced') counts.statBounced! += 1;
      if (status === 'unsubscribed') counts.statUnsubscribed! += 1;
      if (blocked) counts.statBlocked! += 1;
      if (positiveReplies.has(assignmentId)) counts.statPositiveReplied! += 1;

      if (sent) analytics.totalContactsSent! += 1;
      if (opened) analytics.totalContactsOpened! += 1;
      if (status === 'replied') analytics.totalContactsReplied! += 1;
      if (status === 'scheduled') analytics.totalContactsScheduled! += 1;
      if (status === 'bounced') analytics.totalBounced! += 1;
      if (status === 'unsubscribed') analytics.totalUnsubscribed! += 1;

      const summary = snapshot.contacts[contactKey]!;
      summary.assignments[String(assignmentId)] = {
        campaignId,
        sequenceId: assignment.sequenceId as number,
        channel: assignment.channel as string,
        status,
        completedAt: (assignment.completedAt as string | null) ?? null,
      };
      summary.sequences[String(assignment.sequenceId)] = assignmentId;
      snapshot.assignments[assignmentId] = {
        sentCount: sentMessages.get(assignmentId) ?? 0,
        contactBlocked: blocked,
        positiveReplied: positiveReplies.has(assignmentId),
        statusIndex: keys.campaignStatusIndex(orgId, campaignId, status).gsi2pk,
      };
    }
    snapshot.campaigns[campaignId] = counts;
  }
  return snapshot;
}

/** Reads the organization once and returns its maintained counters next to their recomputation. */
export async function maintainedAndRecomputed(
  orgId: number,
): Promise<{ stored: CounterSnapshot; recomputed: CounterSnapshot; raw: RawOrganization }> {
  const raw = await readRawOrganization(orgId);
  return { stored: maintained(raw), recomputed: recomputed(orgId, raw), raw };
}
