import type { SequenceInput } from '#schemas/import.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';
import type { DemoAccounts } from './accounts.ts';
import type { DemoCampaigns } from './campaigns.ts';
import {
  type AccountDraft,
  type ContactDraft,
  type DraftAssignment,
  type DraftEvent,
  HOUR,
  type ImportDocumentInput,
  iso,
  slug,
} from './drafts.ts';
import type { Random } from './random.ts';

const CONTACTS_PER_ACCOUNT = 5;

const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloe',
  'Daniel',
  'Elena',
  'Felix',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Priya',
  'Quinn',
  'Rafael',
  'Sofia',
  'Tom',
  'Uma',
  'Victor',
  'Wen',
  'Yusuf',
  'Zoe',
];
const LAST_NAMES = [
  'Adams',
  'Bauer',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Varga',
  'Wright',
  'Yilmaz',
];

/** Final statuses and how often each occurs. */
const STORIES: readonly (readonly [AssignmentStatus, number])[] = [
  ['pending-approval', 8],
  ['scheduled', 14],
  ['in-progress', 28],
  ['completed', 16],
  ['replied', 18],
  ['bounced', 9],
  ['unsubscribed', 7],
];

/**
 * Five contacts an account, each in one of the account's campaigns: assigned
 * to one of its email sequences, and to its LinkedIn sequence sometimes (a
 * few contacts, without an email, only to that). Each assignment is drawn a
 * story (where it ends up); its history, times and id come later.
 */
export function demoContacts(
  random: Random,
  { accounts, campaignsOf }: DemoAccounts,
  catalog: DemoCampaigns,
  nextId: () => number,
): { contacts: ContactDraft[]; assignments: DraftAssignment[] } {
  const contacts: ContactDraft[] = [];
  const assignments: DraftAssignment[] = [];
  for (const account of accounts) {
    const qualified = campaignsOf.get(account.id)!;
    const firstNames = random.shuffle(FIRST_NAMES);
    for (let index = 0; index < CONTACTS_PER_ACCOUNT; index++) {
      const campaignId = random.pick(qualified);
      const sequences = catalog.sequencesOf(campaignId);
      const linkedin = sequences.find((sequence) => sequence.channel === 'linkedin');
      const firstName = firstNames[index]!;
      const lastName = random.pick(LAST_NAMES);
      const linkedinOnly = linkedin !== undefined && random.chance(0.06);
      const contact: ContactDraft = {
        id: nextId(),
        email: linkedinOnly ? null : `${slug(firstName)}.${slug(lastName)}@${account.domain}`,
        first_name: firstName,
        last_name: lastName,
        full_name: `${firstName} ${lastName}`,
        title: random.pick(catalog.templateOf(campaignId).titles),
        linkedin_url: `https://www.linkedin.com/in/${slug(`${firstName}-${lastName}`)}-${random.int(1000, 9999)}`,
        company_name: account.name ?? null,
        company_domain: account.domain,
      };
      contacts.push(contact);
      const chosen: SequenceInput[] = [];
      if (!linkedinOnly)
        chosen.push(random.pick(sequences.filter((sequence) => sequence.channel === 'email')));
      if (linkedin && (linkedinOnly || random.chance(0.35))) chosen.push(linkedin);
      for (const sequence of chosen) {
        assignments.push(newAssignment(random, account, campaignId, sequence, contact));
      }
    }
  }
  return { contacts, assignments };
}

/** An assignment with its story drawn, pending approval until its history is laid out. */
function newAssignment(
  random: Random,
  account: AccountDraft,
  campaignId: number,
  sequence: SequenceInput,
  contact: ContactDraft,
): DraftAssignment {
  return {
    id: 0,
    campaignId,
    sequence,
    contact,
    story: random.weighted(STORIES),
    status: 'pending-approval',
    createdAt: 0,
    variables: {
      first_name: contact.first_name!,
      company_name: account.name ?? '',
      signal: account.campaigns?.find((q) => q.campaign_id === campaignId)?.signals?.[0]?.contextual ?? '',
    },
  };
}

/**
 * A few contacts are blocked: eight imported so, and six assignments' contacts
 * reported blocked by the provider in the last two days (the events returned).
 */
export function blockSomeContacts(
  random: Random,
  contacts: ContactDraft[],
  assignments: DraftAssignment[],
  now: number,
): DraftEvent[] {
  for (const contact of random.shuffle(contacts).slice(0, 8)) contact.blocked = true;
  const events: DraftEvent[] = [];
  for (const assignment of random
    .shuffle(assignments.filter((a) => a.story !== 'pending-approval'))
    .slice(0, 6)) {
    const at = now - random.int(1, 48) * HOUR;
    events.push({
      at,
      build: (id) => ({ id, type: 'contact_blocked', assignment_id: assignment.id, at: iso(at) }),
    });
  }
  return events;
}

/** An assignment as the import document writes it. */
export function toAssignmentInput(
  assignment: DraftAssignment,
): NonNullable<ImportDocumentInput['assignments']>[number] {
  return {
    id: assignment.id,
    campaign_id: assignment.campaignId,
    sequence_id: assignment.sequence.id,
    contact_id: assignment.contact.id,
    status: assignment.status,
    created_at: iso(assignment.createdAt),
    approved_at: assignment.approvedAt === undefined ? null : iso(assignment.approvedAt),
    sequenced_at: assignment.sequencedAt === undefined ? null : iso(assignment.sequencedAt),
    completed_at: assignment.completedAt === undefined ? null : iso(assignment.completedAt),
    bounced_at: assignment.bouncedAt === undefined ? null : iso(assignment.bouncedAt),
    unsubscribed_at: assignment.unsubscribedAt === undefined ? null : iso(assignment.unsubscribedAt),
    variables: assignment.variables,
  };
}
