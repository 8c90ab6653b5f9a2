import type { AssignmentStatus } from '#schemas/resources.ts';
import {
  CAMPAIGN_COUNTERS,
  type CampaignCounter,
  type CampaignCounts,
  campaignShardCounters,
} from '#store/campaigns.ts';
import {
  analyticsShardCounters,
  ORGANIZATION_COUNTERS,
  type OrganizationCounter,
  type OrganizationCounts,
} from '#store/organizations.ts';
import type { TransactItem } from '#store/transactions.ts';

/**
 * The aggregates reads need, and how each assignment contributes to them.
 * Every write that changes an assignment computes its contribution before and
 * after and adds the difference to the campaign and organization counters in
 * the same transaction. Reads never count items; the property test recomputes
 * every counter from the raw items with the same contribution function.
 */

/** The part of an assignment the counters depend on. */
export interface AssignmentFacts {
  status: AssignmentStatus;
  sentCount: number;
  openCount: number;
  clickCount: number;
  contactBlocked: boolean;
  /** A received message of it has been classified positive, once at least (it stays counted). */
  positiveReplied: boolean;
}

export type { CampaignCounter, CampaignCounts, OrganizationCounter, OrganizationCounts };
/** The counter attributes are the stores' (the campaign item's and the analytics item's). */
export { CAMPAIGN_COUNTERS, ORGANIZATION_COUNTERS };

const STATUS_COUNTER: Record<AssignmentStatus, CampaignCounter> = {
  'pending-approval': 'statusPendingApproval',
  scheduled: 'statusScheduled',
  'in-progress': 'statusInProgress',
  completed: 'statusCompleted',
  replied: 'statusReplied',
  bounced: 'statusBounced',
  unsubscribed: 'statusUnsubscribed',
};

/** The campaign counter that holds the number of assignments in a status. */
export const statusCounter = (status: AssignmentStatus): CampaignCounter => STATUS_COUNTER[status];

const zeros = <K extends string>(names: readonly K[]): Record<K, number> =>
  Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>;

export const emptyCampaignCounts = (): CampaignCounts => zeros(CAMPAIGN_COUNTERS);
export const emptyOrganizationCounts = (): OrganizationCounts => zeros(ORGANIZATION_COUNTERS);

/** What one assignment adds to its campaign's counters. */
export function campaignContribution(facts: AssignmentFacts | null): CampaignCounts {
  const counts = emptyCampaignCounts();
  if (!facts) return counts;
  counts.statSent = facts.sentCount > 0 ? 1 : 0;
  counts.statOpened = facts.openCount > 0 ? 1 : 0;
  counts.statClicked = facts.clickCount > 0 ? 1 : 0;
  counts.statBounced = facts.status === 'bounced' ? 1 : 0;
  counts.statUnsubscribed = facts.status === 'unsubscribed' ? 1 : 0;
  counts.statBlocked = facts.contactBlocked ? 1 : 0;
  counts.statPositiveReplied = facts.positiveReplied ? 1 : 0;
  counts[statusCounter(facts.status)] = 1;
  return counts;
}

/** What one assignment adds to its organization's analytics counters. */
export function organizationContribution(facts: AssignmentFacts | null): OrganizationCounts {
  const counts = emptyOrganizationCounts();
  if (!facts) return counts;
  counts.totalContactsSent = facts.sentCount > 0 ? 1 : 0;
  counts.totalContactsOpened = facts.openCount > 0 ? 1 : 0;
  counts.totalContactsReplied = facts.status === 'replied' ? 1 : 0;
  counts.totalContactsScheduled = facts.status === 'scheduled' ? 1 : 0;
  counts.totalBounced = facts.status === 'bounced' ? 1 : 0;
  counts.totalUnsubscribed = facts.status === 'unsubscribed' ? 1 : 0;
  return counts;
}

/** `after − before`, keeping only the counters that change. */
export function difference<K extends string>(
  before: Record<K, number>,
  after: Record<K, number>,
): Partial<Record<K, number>> {
  const delta: Partial<Record<K, number>> = {};
  for (const name of Object.keys(after) as K[]) {
    const change = after[name] - before[name];
    if (change !== 0) delta[name] = change;
  }
  return delta;
}

/** Adds `delta` into `total` (for accumulating several assignments' changes to one item). */
export function accumulate<K extends string>(
  total: Partial<Record<K, number>>,
  delta: Partial<Record<K, number>>,
): void {
  for (const [name, change] of Object.entries(delta) as [K, number][]) {
    total[name] = (total[name] ?? 0) + change;
  }
}

/** The counter changes one assignment's transition causes. */
export function assignmentDeltas(before: AssignmentFacts | null, after: AssignmentFacts | null) {
  return {
    campaign: difference(campaignContribution(before), campaignContribution(after)),
    organization: difference(organizationContribution(before), organizationContribution(after)),
  };
}

/**
 * The writes adding an assignment's counter deltas, and the messages its
 * change brings, to a campaign shard and an organization shard: the writer
 * slot's when the writer holds one, else the ones the assignment's id picks
 * (shared/store/counter-shards.ts), so that no one item takes every event;
 * none for what does not change.
 */
export function assignmentCounterWrites(
  orgId: number,
  assignment: { campaignId: number; assignmentId: number },
  deltas: ReturnType<typeof assignmentDeltas>,
  messagesCount = 0,
  writerSlot: number | null = null,
): TransactItem[] {
  const { campaignId, assignmentId } = assignment;
  return [
    campaignShardCounters(orgId, campaignId, assignmentId, { ...deltas.campaign, messagesCount }, writerSlot),
    analyticsShardCounters(orgId, assignmentId, deltas.organization, writerSlot),
  ].filter((write) => write !== null);
}
