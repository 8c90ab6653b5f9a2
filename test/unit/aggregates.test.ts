import { describe, expect, it } from 'vitest';
import {
  type AssignmentFacts,
  accumulate,
  assignmentDeltas,
  CAMPAIGN_COUNTERS,
  type CampaignCounter,
  campaignContribution,
  difference,
  emptyCampaignCounts,
  emptyOrganizationCounts,
  ORGANIZATION_COUNTERS,
  organizationContribution,
  statusCounter,
} from '#domain/aggregates.ts';
import { ASSIGNMENT_STATUSES } from '#schemas/resources.ts';

const facts = (overrides: Partial<AssignmentFacts> = {}): AssignmentFacts => ({
  status: 'pending-approval',
  sentCount: 0,
  openCount: 0,
  clickCount: 0,
  contactBlocked: false,
  positiveReplied: false,
  ...overrides,
});

/** The counters of a contribution that are not zero. */
const nonZero = <K extends string>(counts: Record<K, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([, value]) => value !== 0));

describe('campaign and organization aggregates', () => {
  it('contributes nothing for an absent assignment', () => {
    // Act
    const campaign = campaignContribution(null);
    const organization = organizationContribution(null);

    // Assess
    expect(campaign).toEqual(emptyCampaignCounts());
    expect(organization).toEqual(emptyOrganizationCounts());
    expect(Object.keys(campaign).sort()).toEqual([...CAMPAIGN_COUNTERS].sort());
    expect(Object.keys(organization).sort()).toEqual([...ORGANIZATION_COUNTERS].sort());
  });

  it('counts a new pending assignment only in its status', () => {
    // Act
    const campaign = campaignContribution(facts());
    const organization = organizationContribution(facts());

    // Assess
    expect(nonZero(campaign)).toEqual({ statusPendingApproval: 1 });
    expect(nonZero(organization)).toEqual({});
  });

  it('counts a scheduled assignment in the campaign status and the organization total', () => {
    // Act
    const campaign = campaignContribution(facts({ status: 'scheduled' }));
    const organization = organizationContribution(facts({ status: 'scheduled' }));

    // Assess
    expect(nonZero(campaign)).toEqual({ statusScheduled: 1 });
    expect(nonZero(organization)).toEqual({ totalContactsScheduled: 1 });
  });

  it('counts an assignment once in sent, opened and clicked however many messages, opens and clicks it has', () => {
    // Prepare
    const busy = facts({ status: 'in-progress', sentCount: 3, openCount: 7, clickCount: 2 });

    // Act
    const campaign = campaignContribution(busy);
    const organization = organizationContribution(busy);

    // Assess
    expect(nonZero(campaign)).toEqual({ statSent: 1, statOpened: 1, statClicked: 1, statusInProgress: 1 });
    expect(nonZero(organization)).toEqual({ totalContactsSent: 1, totalContactsOpened: 1 });
  });

  it('counts a replied assignment as replied in both', () => {
    // Act
    const campaign = campaignContribution(facts({ status: 'replied', sentCount: 1 }));
    const organization = organizationContribution(facts({ status: 'replied', sentCount: 1 }));

    // Assess
    expect(nonZero(campaign)).toEqual({ statSent: 1, statusReplied: 1 });
    expect(nonZero(organization)).toEqual({ totalContactsSent: 1, totalContactsReplied: 1 });
  });

  it('counts bounced and unsubscribed assignments in the stats, the status counts and the totals', () => {
    // Act
    const bounced = campaignContribution(facts({ status: 'bounced' }));
    const unsubscribed = campaignContribution(facts({ status: 'unsubscribed' }));

    // Assess
    expect(nonZero(bounced)).toEqual({ statBounced: 1, statusBounced: 1 });
    expect(nonZero(unsubscribed)).toEqual({ statUnsubscribed: 1, statusUnsubscribed: 1 });
    expect(nonZero(organizationContribution(facts({ status: 'bounced' })))).toEqual({ totalBounced: 1 });
    expect(nonZero(organizationContribution(facts({ status: 'unsubscribed' })))).toEqual({
      totalUnsubscribed: 1,
    });
  });

  it('counts an assignment of a blocked contact as blocked in the campaign only', () => {
    // Act
    const campaign = campaignContribution(facts({ status: 'completed', contactBlocked: true }));
    const organization = organizationContribution(facts({ status: 'completed', contactBlocked: true }));

    // Assess
    expect(nonZero(campaign)).toEqual({ statBlocked: 1, statusCompleted: 1 });
    expect(nonZero(organization)).toEqual({});
  });

  it('counts an assignment with a positive reply in the campaign only, in any status', () => {
    // Act
    const replied = campaignContribution(facts({ status: 'replied', sentCount: 1, positiveReplied: true }));
    const unsubscribed = campaignContribution(facts({ status: 'unsubscribed', positiveReplied: true }));
    const organization = organizationContribution(facts({ status: 'replied', positiveReplied: true }));

    // Assess
    expect(nonZero(replied)).toEqual({ statSent: 1, statPositiveReplied: 1, statusReplied: 1 });
    expect(nonZero(unsubscribed)).toEqual({
      statPositiveReplied: 1,
      statUnsubscribed: 1,
      statusUnsubscribed: 1,
    });
    expect(nonZero(organization)).toEqual({ totalContactsReplied: 1 });
  });

  it('raises the positive replies once when a reply turns positive, and keeps them while it stays so', () => {
    // Prepare
    const replied = facts({ status: 'replied', sentCount: 1 });
    const positive = { ...replied, positiveReplied: true };

    // Act
    const turned = assignmentDeltas(replied, positive);
    const again = assignmentDeltas(positive, { ...positive, status: 'unsubscribed' });

    // Assess
    expect(turned).toEqual({ campaign: { statPositiveReplied: 1 }, organization: {} });
    expect(again.campaign.statPositiveReplied).toBeUndefined();
  });

  it('maps every status to its own campaign counter', () => {
    // Act
    const counters = ASSIGNMENT_STATUSES.map(statusCounter);

    // Assess
    expect(new Set<CampaignCounter>(counters).size).toBe(ASSIGNMENT_STATUSES.length);
    for (const status of ASSIGNMENT_STATUSES) {
      expect(campaignContribution(facts({ status }))[statusCounter(status)]).toBe(1);
    }
  });

  it('adds a created assignment’s whole contribution', () => {
    // Act
    const deltas = assignmentDeltas(null, facts({ status: 'scheduled' }));

    // Assess
    expect(deltas).toEqual({
      campaign: { statusScheduled: 1 },
      organization: { totalContactsScheduled: 1 },
    });
  });

  it('moves one count between statuses on approval', () => {
    // Act
    const deltas = assignmentDeltas(facts(), facts({ status: 'scheduled' }));

    // Assess
    expect(deltas).toEqual({
      campaign: { statusPendingApproval: -1, statusScheduled: 1 },
      organization: { totalContactsScheduled: 1 },
    });
  });

  it('counts the first sent message and not the second', () => {
    // Prepare
    const scheduled = facts({ status: 'scheduled' });
    const afterFirst = facts({ status: 'in-progress', sentCount: 1 });
    const afterSecond = facts({ status: 'in-progress', sentCount: 2 });

    // Act
    const first = assignmentDeltas(scheduled, afterFirst);
    const second = assignmentDeltas(afterFirst, afterSecond);

    // Assess
    expect(first).toEqual({
      campaign: { statusScheduled: -1, statusInProgress: 1, statSent: 1 },
      organization: { totalContactsScheduled: -1, totalContactsSent: 1 },
    });
    expect(second).toEqual({ campaign: {}, organization: {} });
  });

  it('counts the first open and the first click only', () => {
    // Prepare
    const sent = facts({ status: 'in-progress', sentCount: 1 });

    // Act
    const firstOpen = assignmentDeltas(sent, { ...sent, openCount: 1 });
    const secondOpen = assignmentDeltas({ ...sent, openCount: 1 }, { ...sent, openCount: 2 });
    const firstClick = assignmentDeltas(sent, { ...sent, clickCount: 1 });

    // Assess
    expect(firstOpen).toEqual({ campaign: { statOpened: 1 }, organization: { totalContactsOpened: 1 } });
    expect(secondOpen).toEqual({ campaign: {}, organization: {} });
    expect(firstClick).toEqual({ campaign: { statClicked: 1 }, organization: {} });
  });

  it('moves a replied, bounced or unsubscribed assignment out of its previous status', () => {
    // Prepare
    const inProgress = facts({ status: 'in-progress', sentCount: 1 });

    // Act
    const replied = assignmentDeltas(inProgress, { ...inProgress, status: 'replied' });
    const bounced = assignmentDeltas(facts({ status: 'scheduled' }), facts({ status: 'bounced' }));
    const unsubscribed = assignmentDeltas(facts({ status: 'completed' }), facts({ status: 'unsubscribed' }));

    // Assess
    expect(replied).toEqual({
      campaign: { statusInProgress: -1, statusReplied: 1 },
      organization: { totalContactsReplied: 1 },
    });
    expect(bounced).toEqual({
      campaign: { statusScheduled: -1, statusBounced: 1, statBounced: 1 },
      organization: { totalContactsScheduled: -1, totalBounced: 1 },
    });
    expect(unsubscribed).toEqual({
      campaign: { statusCompleted: -1, statusUnsubscribed: 1, statUnsubscribed: 1 },
      organization: { totalUnsubscribed: 1 },
    });
  });

  it('raises the blocked stat when the contact is blocked', () => {
    // Act
    const deltas = assignmentDeltas(
      facts({ status: 'scheduled' }),
      facts({ status: 'scheduled', contactBlocked: true }),
    );

    // Assess
    expect(deltas).toEqual({ campaign: { statBlocked: 1 }, organization: {} });
  });

  it('keeps only the counters that change in a difference', () => {
    // Act
    const delta = difference({ a: 1, b: 2, c: 0 }, { a: 1, b: 5, c: -1 });

    // Assess
    expect(delta).toEqual({ b: 3, c: -1 });
  });

  it('accumulates several assignments’ deltas into one', () => {
    // Prepare
    const total: Partial<Record<'statSent' | 'statusScheduled' | 'statusInProgress', number>> = {};

    // Act
    accumulate(total, { statusScheduled: -1, statusInProgress: 1, statSent: 1 });
    accumulate(total, { statusScheduled: -1, statusInProgress: 1 });
    accumulate(total, { statusScheduled: 1 });

    // Assess
    expect(total).toEqual({ statusScheduled: -1, statusInProgress: 2, statSent: 1 });
  });
});
