/**
 * The enumerated values of item fields: what the stores (shared/store/) and
 * their item schemas (shared/store/item-schemas/) both name, in a module
 * without zod, so the stores never import their schemas at run time.
 */

/** Counter attributes of a campaign item (CampaignSummary.stats and CampaignDetail.contacts, and the dashboard's rates; docs/decisions.md, Assignments). */
export const CAMPAIGN_COUNTERS = [
  'statSent',
  'statOpened',
  'statClicked',
  'statBounced',
  'statUnsubscribed',
  'statBlocked',
  // Not in the public API's shapes: the dashboard's positive-reply rate (docs/decisions.md, Positive replies).
  'statPositiveReplied',
  'statusPendingApproval',
  'statusScheduled',
  'statusInProgress',
  'statusCompleted',
  'statusReplied',
  'statusBounced',
  'statusUnsubscribed',
] as const;

export type CampaignCounter = (typeof CAMPAIGN_COUNTERS)[number];

/** The counters an assignment's writes move, kept on the campaign's shards (and on its item). */
export type ShardedCampaignCounter = CampaignCounter | 'messagesCount';

export const SHARDED_COUNTERS: readonly ShardedCampaignCounter[] = [...CAMPAIGN_COUNTERS, 'messagesCount'];

/** Counter attributes of the organization's analytics item (AnalyticsOverview). */
export const ORGANIZATION_COUNTERS = [
  'totalContactsSent',
  'totalContactsOpened',
  'totalContactsReplied',
  'totalContactsScheduled',
  'totalBounced',
  'totalUnsubscribed',
] as const;

export type OrganizationCounter = (typeof ORGANIZATION_COUNTERS)[number];

/** Where an assignment's enrollment at its provider stands. */
export const ENROLLMENT_STATUSES = ['pending', 'enrolled', 'failed'] as const;

/** Where a client comes from: an operator's (bound to one organization), a registration, or a metadata document. */
export const CLIENT_KINDS = ['operator', 'dynamic', 'metadata-document'] as const;

/** A member's role in an organization. */
export const MEMBER_ROLES = ['admin', 'viewer'] as const;

/** Statuses of an assignment (a contact in a campaign's sequence). */
export const ASSIGNMENT_STATUSES = [
  'pending-approval',
  'scheduled',
  'in-progress',
  'completed',
  'replied',
  'bounced',
  'unsubscribed',
] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
