import { demoAccounts } from './demo/accounts.ts';
import { demoCampaigns } from './demo/campaigns.ts';
import { blockSomeContacts, demoContacts, toAssignmentInput } from './demo/contacts.ts';
import type { ImportDocumentInput } from './demo/drafts.ts';
import { numberInTimeOrder } from './demo/events.ts';
import { demoExclusions } from './demo/exclusions.ts';
import { demoHistories, toMessageInput } from './demo/history.ts';
import { demoJobs } from './demo/jobs.ts';
import { Random } from './demo/random.ts';

/**
 * The demo organization's data as an import document: four campaigns over four
 * providers (one with a LinkedIn sequence), 220 scored accounts, 1,100 contacts
 * in every assignment status, a message history with opens, clicks and replies
 * of every response type, provider events for the recent activity, job
 * openings for fifteen domains and a few exclusions.
 *
 * Deterministic: the same seed and `now` give the same document (a seeded
 * PRNG, no clock reads), so tests can rely on it and a re-import changes
 * nothing. Times are laid out backwards from `now`, so the history is recent
 * whenever the demo is seeded (cooldown windows and `since` filters show
 * something), and nothing lies in the future.
 *
 * Each part is built by its own module in `demo/`, in this order (they share
 * one PRNG, so the order is part of the output): campaigns, accounts, contacts
 * and their assignments, the assignments' histories (messages and events),
 * blocked contacts, ids in time order, jobs, exclusions.
 */

export type { ImportDocumentInput } from './demo/drafts.ts';

/** Entity types whose ids the demo document carries (kept by the import). */
export const DEMO_ID_ENTITIES = [
  'campaign',
  'sequence',
  'account',
  'contact',
  'assignment',
  'message',
] as const;
export type DemoIdEntity = (typeof DEMO_ID_ENTITIES)[number];

export interface DemoOptions {
  /** PRNG seed. */
  seed?: number;
  /** The moment the history leads up to; defaults to 2026-04-15T12:00:00.000Z so the default output never varies. */
  now?: Date;
  /**
   * The first id of each entity type; ids are consecutive from there. The seed
   * allocates fresh blocks, so a second demo organization never reuses ids.
   */
  firstIds?: Partial<Record<DemoIdEntity, number>>;
  /**
   * How many accounts (each with five contacts); the default builds the full
   * demo. Tests that only need a stack with some data ask for fewer.
   */
  accounts?: number;
}

export const DEMO_DEFAULT_SEED = 20_260_415;
const DEFAULT_NOW = new Date('2026-04-15T12:00:00.000Z');
const ACCOUNTS = 220;

/** Builds the demo import document. */
export function demoDocument(options: DemoOptions = {}): ImportDocumentInput {
  const random = new Random(options.seed ?? DEMO_DEFAULT_SEED);
  const now = (options.now ?? DEFAULT_NOW).getTime();
  const firstId = (entity: DemoIdEntity) => options.firstIds?.[entity] ?? 1;
  const counter = (entity: DemoIdEntity) => {
    let next = firstId(entity);
    return () => next++;
  };

  const catalog = demoCampaigns({ campaign: counter('campaign'), sequence: counter('sequence') }, now);
  const accounts = demoAccounts(random, catalog, options.accounts ?? ACCOUNTS, counter('account'), now);
  const { contacts, assignments } = demoContacts(random, accounts, catalog, counter('contact'));
  const { messages, events } = demoHistories(random, assignments, now);
  events.push(...blockSomeContacts(random, contacts, assignments, now));
  const builtEvents = numberInTimeOrder(
    { assignments, messages, events },
    { assignment: firstId('assignment'), message: firstId('message') },
  );
  const jobs = demoJobs(random, accounts, catalog, now);

  return {
    campaigns: catalog.campaigns,
    accounts: accounts.accounts,
    contacts,
    assignments: assignments.map(toAssignmentInput),
    messages: messages.map(toMessageInput),
    events: builtEvents,
    jobs: jobs.list,
    exclusions: demoExclusions(random, accounts, contacts, jobs.domains),
  };
}
