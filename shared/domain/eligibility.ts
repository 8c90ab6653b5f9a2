import { INELIGIBILITY_REASONS, type IneligibilityReason } from '#definitions/raw-operations.ts';
import { emailDomain } from '#schemas/domain-names.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';
import type { CampaignRecord, SequenceRef } from '#store/campaigns.ts';
import { readPushSettings } from '#store/exclusions.ts';
import { type ContactRecord, getContactsByEmail, normalizeEmail } from './contacts.ts';
import { CampaignNotFound } from './errors.ts';
import { DEFAULT_COOLDOWN_DAYS } from './organizations.ts';

/**
 * Eligibility of a contact for a raw push into one sequence: the rules of
 * docs/decisions.md (Raw operations, Eligibility).
 * Everything a check needs is read up front in two steps: one BatchGetItem for
 * the campaign, the organization's settings and the exclusion shards, then the
 * contacts by email (BatchGetItem, 100 a request), whose items carry their
 * eligibility summary. A 1,000-email check is 11 requests.
 */

/** The bypass flags of a push or a check. */
export interface Bypass {
  bypassCooldownOtherSequences: boolean;
  bypassGlobalExcluded: boolean;
  takeoverUnapproved: boolean;
}

/** What a check of one contact found. */
export interface Verdict {
  reasons: IneligibilityReason[];
  /** The contact's assignment in the target sequence, if any. */
  existingInSequence: number | null;
  /** Pending assignments in other sequences that a takeover withdraws. */
  withdraw: number[];
}

const ACTIVE: readonly AssignmentStatus[] = ['scheduled', 'in-progress'];

/** Checks one contact (null: not known yet) against the rules; pure, so tests can drive it directly. */
export function evaluate(
  contact: ContactRecord | null,
  excluded: boolean,
  target: { sequence: SequenceRef; cooldownDays: number; now: number },
  bypass: Bypass,
): Verdict {
  const reasons = new Set<IneligibilityReason>();
  const withdraw: number[] = [];
  let existingInSequence: number | null = null;
  const windowStart = new Date(target.now - target.cooldownDays * 86_400_000).toISOString();
  const recentlyCompleted = (status: AssignmentStatus, completedAt: string | null) =>
    status === 'completed' && completedAt !== null && completedAt > windowStart;

  for (const [assignmentId, entry] of Object.entries(contact?.assignments ?? {})) {
    const sameSequence = entry.sequenceId === target.sequence.id;
    if (sameSequence) existingInSequence = Number(assignmentId);
    if (sameSequence) {
      if (
        entry.status === 'pending-approval' ||
        ACTIVE.includes(entry.status) ||
        recentlyCompleted(entry.status, entry.completedAt)
      ) {
        reasons.add('cooldown_same_sequence');
      }
    } else {
      if (
        entry.channel === target.sequence.channel &&
        (ACTIVE.includes(entry.status) || recentlyCompleted(entry.status, entry.completedAt)) &&
        !bypass.bypassCooldownOtherSequences
      ) {
        reasons.add('cooldown_other_sequences');
      }
      if (entry.status === 'pending-approval') {
        if (bypass.takeoverUnapproved) withdraw.push(Number(assignmentId));
        else reasons.add('unapproved');
      }
    }
    if (entry.status === 'replied') reasons.add('replied');
    if (entry.status === 'bounced' || entry.status === 'unsubscribed') reasons.add('blocked');
  }
  if (contact?.blocked) reasons.add('blocked');
  if (excluded && !bypass.bypassGlobalExcluded) reasons.add('globally_excluded');
  return {
    reasons: INELIGIBILITY_REASONS.filter((reason) => reasons.has(reason)),
    existingInSequence,
    withdraw,
  };
}

/** Everything the checks of one request need, read in ⌈n/100⌉ + 1 requests. */
export interface EligibilityInputs {
  campaign: CampaignRecord;
  cooldownDays: number;
  contacts: Map<string, ContactRecord>;
  /** Whether an email (normalized) or a domain is on the exclusion list. */
  isExcluded(email: string, companyDomain: string | null): boolean;
}

/** Reads the campaign, settings, exclusions and contacts for a check of `emails` (normalized). */
export async function loadEligibilityInputs(
  orgId: number,
  campaignId: number,
  emails: string[],
): Promise<EligibilityInputs> {
  const [settings, contacts] = await Promise.all([
    readPushSettings(orgId, campaignId, emails),
    getContactsByEmail(orgId, emails),
  ]);
  if (!settings.campaign) throw new CampaignNotFound(campaignId);
  const { emails: excludedEmails, domains: excludedDomains } = settings.excluded;
  return {
    campaign: settings.campaign,
    cooldownDays: settings.cooldownDays ?? DEFAULT_COOLDOWN_DAYS,
    contacts,
    isExcluded(email, companyDomain) {
      const normalized = normalizeEmail(email);
      const domain = emailDomain(normalized);
      return (
        excludedEmails.has(normalized) ||
        (domain !== null && excludedDomains.has(domain)) ||
        (companyDomain !== null && excludedDomains.has(companyDomain))
      );
    },
  };
}
