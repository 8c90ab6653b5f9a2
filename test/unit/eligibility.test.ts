import { describe, expect, it } from 'vitest';
import type { IneligibilityReason } from '#definitions/raw-operations.ts';
import type { ContactAssignmentEntry, ContactRecord } from '#domain/contacts.ts';
import { type Bypass, evaluate } from '#domain/eligibility.ts';
import type { SequenceInput } from '#schemas/import.ts';

/** The eligibility rules of docs/decisions.md (Raw operations), one reason at a time, in combination, and with each bypass. */

const NOW = Date.parse('2026-06-01T00:00:00.000Z');
const DAY = 86_400_000;
const target = {
  sequence: { id: 10, provider: 'smartlead', channel: 'email', steps: [] } as SequenceInput,
  cooldownDays: 90,
  now: NOW,
};
const noBypass: Bypass = {
  bypassCooldownOtherSequences: false,
  bypassGlobalExcluded: false,
  takeoverUnapproved: false,
};

function contact(entries: Record<number, Partial<ContactAssignmentEntry>>, blocked = false): ContactRecord {
  const assignments: Record<string, ContactAssignmentEntry> = {};
  for (const [id, entry] of Object.entries(entries)) {
    assignments[id] = {
      campaignId: 1,
      sequenceId: 10,
      channel: 'email',
      status: 'scheduled',
      completedAt: null,
      ...entry,
    };
  }
  return {
    id: 1,
    email: 'a@b.com',
    first_name: null,
    last_name: null,
    full_name: null,
    title: null,
    linkedin_url: null,
    company_name: null,
    company_domain: null,
    blocked,
    assignments,
    sequenceAssignments: {},
    eligibilityVersion: Object.keys(assignments).length,
  };
}

const reasonsOf = (record: ContactRecord | null, excluded = false, bypass: Partial<Bypass> = {}) =>
  evaluate(record, excluded, target, { ...noBypass, ...bypass }).reasons;

const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();

describe('evaluate', () => {
  it('finds an unknown, unexcluded contact eligible', () => {
    expect(reasonsOf(null)).toEqual([]);
  });

  it.each([
    ['pending-approval', null, ['cooldown_same_sequence']],
    ['scheduled', null, ['cooldown_same_sequence']],
    ['in-progress', null, ['cooldown_same_sequence']],
    ['completed', daysAgo(10), ['cooldown_same_sequence']],
    ['completed', daysAgo(91), []],
    ['replied', null, ['replied']],
    ['bounced', null, ['blocked']],
    ['unsubscribed', null, ['blocked']],
  ] as const)(
    'judges an assignment in the same sequence that is %s (completed %s)',
    (status, completedAt, expected) => {
      expect(reasonsOf(contact({ 5: { status, completedAt } }))).toEqual(expected);
    },
  );

  it.each([
    ['scheduled', 'email', null, ['cooldown_other_sequences']],
    ['in-progress', 'email', null, ['cooldown_other_sequences']],
    ['completed', 'email', daysAgo(30), ['cooldown_other_sequences']],
    ['completed', 'email', daysAgo(120), []],
    ['scheduled', 'linkedin', null, []],
    ['in-progress', 'linkedin', null, []],
    ['pending-approval', 'email', null, ['unapproved']],
    ['pending-approval', 'linkedin', null, ['unapproved']],
  ] as const)(
    'judges an assignment in another sequence that is %s on %s',
    (status, channel, completedAt, expected) => {
      expect(
        reasonsOf(contact({ 5: { sequenceId: 11, campaignId: 2, status, channel, completedAt } })),
      ).toEqual(expected);
    },
  );

  it('uses the organization’s cooldown window', () => {
    const record = contact({ 5: { status: 'completed', completedAt: daysAgo(20) } });
    expect(evaluate(record, false, { ...target, cooldownDays: 10 }, noBypass).reasons).toEqual([]);
    expect(evaluate(record, false, { ...target, cooldownDays: 30 }, noBypass).reasons).toEqual([
      'cooldown_same_sequence',
    ]);
  });

  it('marks a blocked contact blocked', () => {
    expect(reasonsOf(contact({}, true))).toEqual(['blocked']);
  });

  it('marks an excluded contact globally_excluded unless bypassed', () => {
    expect(reasonsOf(null, true)).toEqual(['globally_excluded']);
    expect(reasonsOf(null, true, { bypassGlobalExcluded: true })).toEqual([]);
  });

  it('lets bypassCooldownOtherSequences lift only the other-sequence cooldown', () => {
    const record = contact({
      5: { sequenceId: 11, status: 'in-progress' },
      6: { sequenceId: 10, status: 'scheduled' },
    });
    expect(reasonsOf(record)).toEqual(['cooldown_same_sequence', 'cooldown_other_sequences']);
    expect(reasonsOf(record, false, { bypassCooldownOtherSequences: true })).toEqual([
      'cooldown_same_sequence',
    ]);
  });

  it('lets takeoverUnapproved lift unapproved and lists the pending assignments to withdraw', () => {
    const record = contact({
      5: { sequenceId: 11, status: 'pending-approval' },
      6: { sequenceId: 12, status: 'pending-approval', channel: 'linkedin' },
    });
    expect(evaluate(record, false, target, { ...noBypass, takeoverUnapproved: true })).toEqual({
      reasons: [],
      existingInSequence: null,
      withdraw: [5, 6],
    });
  });

  it('never lifts cooldown_same_sequence, replied or blocked', () => {
    const all: Bypass = {
      bypassCooldownOtherSequences: true,
      bypassGlobalExcluded: true,
      takeoverUnapproved: true,
    };
    const record = contact(
      {
        5: { status: 'scheduled' },
        6: { sequenceId: 11, status: 'replied' },
        7: { sequenceId: 12, status: 'bounced' },
      },
      true,
    );
    expect(reasonsOf(record, true, all)).toEqual(['cooldown_same_sequence', 'replied', 'blocked']);
  });

  it('reports every reason that holds, in a fixed order', () => {
    const record = contact(
      {
        5: { status: 'in-progress' },
        6: { sequenceId: 11, status: 'scheduled' },
        7: { sequenceId: 12, status: 'pending-approval' },
        8: { sequenceId: 13, status: 'replied' },
        9: { sequenceId: 14, status: 'unsubscribed' },
      },
      false,
    );
    const expected: IneligibilityReason[] = [
      'cooldown_same_sequence',
      'cooldown_other_sequences',
      'unapproved',
      'replied',
      'blocked',
      'globally_excluded',
    ];
    expect(reasonsOf(record, true)).toEqual(expected);
  });

  it('names the contact’s existing assignment in the target sequence', () => {
    expect(
      evaluate(contact({ 42: { status: 'completed', completedAt: daysAgo(200) } }), false, target, noBypass)
        .existingInSequence,
    ).toBe(42);
  });
});
