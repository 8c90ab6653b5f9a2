import { upsertAccount } from '#domain/accounts.ts';
import { createAssignments, type NewAssignment } from '#domain/assignments.ts';
import { eventMessagesWithoutId, importedAssignments, planBulkImport } from '#domain/bulk-import.ts';
import { upsertCampaign } from '#domain/campaigns.ts';
import { blockContactWrites, type ContactRecord, upsertContact } from '#domain/contacts.ts';
import { addExclusion, findExclusions } from '#domain/exclusions.ts';
import { upsertJobs } from '#domain/jobs.ts';
import { recordMessageHistory } from '#domain/messages.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import { emitNewOpportunities, type NewOpportunity } from '#domain/webhook-events.ts';
import { normalizeDomain } from '#schemas/domain-names.ts';
import type { ImportDocument } from '#schemas/import.ts';
import { type BulkImportUnderWay, bulkImports, putItems } from '#store/bulk-writes.ts';
import { allocateIds } from '#store/ids.ts';
import { mapLimit, transact } from '#store/transactions.ts';
import type { ImportReport, ProgressListener } from './import.ts';

/**
 * The two ways an import is applied (shared/admin/import.ts chooses): the
 * bulk path, for a first load, and the transactional path, change by change
 * through the same domain operations as live traffic. Either way the table
 * ends the same, aggregates included.
 */

/**
 * Requests in flight during an import. Most writes of one campaign also update
 * one of its counter shards (and of the organization's analytics shards), so
 * more parallel transactions would only queue on those items: DynamoDB cancels
 * conflicting transactions, DynamoDB Local times out waiting for its locks.
 */
const CONCURRENCY = 6;
/** Assignment batches (49 assignments each) of one campaign in flight. */
const ASSIGNMENT_BATCH_CONCURRENCY = 2;

/** The bulk path's phase in which it writes the items it computed (the demo seed watches for it). */
export const WRITING_ITEMS_PHASE = 'writing items';

/** Runs `fn` over `items`, `concurrency` at a time, reporting each one done. */
function phase<T, R>(
  onProgress: ProgressListener,
  name: string,
  items: T[],
  fn: (item: T) => Promise<R>,
  concurrency = CONCURRENCY,
): Promise<R[]> {
  let done = 0;
  onProgress(name, 0, items.length);
  return mapLimit(items, concurrency, async (item) => {
    const result = await fn(item);
    onProgress(name, ++done, items.length);
    return result;
  });
}

/** Every exclusion of the document, as `exclusions add` would add it (an excluded domain's account too). */
async function applyExclusions(
  orgId: number,
  document: ImportDocument,
  onProgress: ProgressListener,
  organizationIsNew: boolean,
): Promise<void> {
  await phase(onProgress, 'exclusions', document.exclusions, (exclusion) =>
    'email' in exclusion
      ? addExclusion(orgId, 'email', exclusion.email, {}, { organizationIsNew })
      : addExclusion(orgId, 'domain', normalizeDomain(exclusion.domain)!, {}, { organizationIsNew }),
  );
}

/** The document's jobs, their domains normalized. */
const jobsOf = (document: ImportDocument) =>
  document.jobs.map((job) => ({ ...job, domain: normalizeDomain(job.domain)! }));

/**
 * The bulk path (shared/domain/bulk-import.ts): exclusions as always (they
 * may touch items outside the document), while every other item of the
 * document is computed in memory; once the exclusions are in and the import
 * is marked under way, the items are written with BatchWriteItem, the
 * campaigns last, so that a campaign appears with everything it counts, and
 * the jobs go their usual batch way alongside; last, the organization's
 * counters are added to its analytics item as the marker goes. Every step
 * before that one puts the same items again when an interrupted import of the
 * same document is resumed (`underWay`: with the message ids it allocated).
 */
export async function bulkImport(
  orgId: number,
  document: ImportDocument,
  digest: string,
  underWay: BulkImportUnderWay | null,
  reserved: Promise<void>,
  onProgress: ProgressListener,
  organizationIsNew: boolean,
): Promise<ImportReport> {
  const accountDomains = document.accounts.map((account) => normalizeDomain(account.domain)!);
  const [, plan] = await Promise.all([
    applyExclusions(orgId, document, onProgress, organizationIsNew),
    (async () => {
      const [excluded, messageIds] = await Promise.all([
        findExclusions(orgId, { emails: [], domains: accountDomains }),
        // Allocated past the document's own ids once they are reserved.
        underWay?.messageIds ?? reserved.then(() => allocateIds('message', eventMessagesWithoutId(document))),
        reserved,
      ]);
      // The list as it was, and the document's own exclusions, whether or not they were in yet when it was read.
      const excludedByDocument = new Set(
        document.exclusions.flatMap((exclusion) =>
          'domain' in exclusion ? [normalizeDomain(exclusion.domain)!] : [],
        ),
      );
      const excludedDomains = new Set(
        accountDomains.filter((domain) => excluded.domains.has(domain) || excludedByDocument.has(domain)),
      );
      // Marked under way before its first item is written.
      await bulkImports.begin(orgId, digest, { messageIds });
      const records = Object.values(document).reduce((total, section) => total + section.length, 0);
      onProgress('preparing items', 0, records);
      const planned = await planBulkImport(orgId, document, { excludedDomains, messageIds });
      onProgress('preparing items', records, records);
      return planned;
    })(),
  ]);
  const { items, increments } = plan.image.contents();
  const isCampaign = (item: Record<string, unknown>) => item.type === 'campaign';
  let written = 0;
  const onWritten = (count: number) => {
    written += count;
    onProgress(WRITING_ITEMS_PHASE, written, items.length);
  };
  onProgress(WRITING_ITEMS_PHASE, 0, items.length);
  await Promise.all([
    (async () => {
      await putItems(
        items.filter((item) => !isCampaign(item)),
        onWritten,
      );
      await putItems(items.filter(isCampaign), onWritten);
    })(),
    upsertJobs(orgId, jobsOf(document)),
  ]);
  await bulkImports.commit(orgId, digest, increments);
  return report(document, {
    assignmentsCreated: document.assignments.length,
    messagesWritten: document.messages.length,
    eventsApplied: plan.eventsApplied,
    eventsDuplicate: plan.eventsDuplicate,
    path: 'bulk',
  });
}

/** The report of an import of the document, from what its path counted. */
const report = (
  document: ImportDocument,
  counted: Pick<
    ImportReport,
    'assignmentsCreated' | 'messagesWritten' | 'eventsApplied' | 'eventsDuplicate' | 'path'
  >,
): ImportReport => ({
  campaigns: document.campaigns.length,
  accounts: document.accounts.length,
  contacts: document.contacts.length,
  assignmentsCreated: counted.assignmentsCreated,
  assignmentsExisting: document.assignments.length - counted.assignmentsCreated,
  messagesWritten: counted.messagesWritten,
  eventsApplied: counted.eventsApplied,
  eventsDuplicate: counted.eventsDuplicate,
  jobs: document.jobs.length,
  exclusions: document.exclusions.length,
  path: counted.path,
});

/**
 * The transactional path: section by section through the same domain
 * operations as live traffic, each change in its own transaction with the
 * aggregates it moves, every step idempotent (so importing the same file
 * twice leaves the same state).
 */
export async function transactionalImport(
  orgId: number,
  document: ImportDocument,
  onProgress: ProgressListener,
  emitEvents: boolean,
  organizationIsNew: boolean,
): Promise<ImportReport> {
  await phase(onProgress, 'campaigns', document.campaigns, (campaign) => upsertCampaign(orgId, campaign));
  await applyExclusions(orgId, document, onProgress, organizationIsNew);
  const accountDomains = document.accounts.map((account) => normalizeDomain(account.domain)!);
  const excluded = await findExclusions(orgId, { emails: [], domains: accountDomains });
  const newOpportunities: NewOpportunity[] = [];
  await phase(onProgress, 'accounts', document.accounts, async (account) => {
    const domain = normalizeDomain(account.domain)!;
    const upserted = await upsertAccount(orgId, { ...account, domain }, excluded.domains.has(domain), {
      emitEvents,
    });
    newOpportunities.push(...upserted.newOpportunities);
  });
  // Newly qualified accounts are announced per campaign, in batches (at most 100 accounts an event).
  if (newOpportunities.length > 0) await emitNewOpportunities(orgId, newOpportunities);

  const contacts = new Map<number, ContactRecord>();
  await phase(onProgress, 'contacts', document.contacts, async (input) => {
    let record = await upsertContact(orgId, input);
    if (input.blocked && !record.blocked) {
      await transact(blockContactWrites(orgId, record, { stopAtProviders: false }));
      record = { ...record, blocked: true };
    }
    contacts.set(input.id, record);
  });

  let assignmentsCreated = 0;
  let assignmentsDone = 0;
  onProgress('assignments', 0, document.assignments.length);
  for (const [campaignId, inputs] of importedAssignments(document, contacts)) {
    const batches: NewAssignment[][] = [];
    for (let start = 0; start < inputs.length; start += 49) batches.push(inputs.slice(start, start + 49));
    await mapLimit(batches, ASSIGNMENT_BATCH_CONCURRENCY, async (batch) => {
      const outcomes = await createAssignments(orgId, campaignId, batch);
      assignmentsCreated += outcomes.filter((outcome) => outcome.outcome === 'created').length;
      assignmentsDone += batch.length;
      onProgress('assignments', assignmentsDone, document.assignments.length);
    });
  }

  const messagesByAssignment = groupBy(document.messages, (message) => message.assignment_id);
  let messagesWritten = 0;
  await phase(onProgress, 'messages', [...messagesByAssignment], async ([assignmentId, messages]) => {
    // Read the total only after the await: the workers run concurrently.
    const written = await recordMessageHistory(orgId, assignmentId, messages, { emitEvents });
    messagesWritten += written;
  });

  // Events of one assignment apply in document order; different assignments in parallel.
  let eventsApplied = 0;
  let eventsDuplicate = 0;
  await phase(
    onProgress,
    'events',
    [...groupBy(document.events, (event) => event.assignment_id).values()],
    async (events) => {
      for (const event of events) {
        // History: its leads are at the provider already, so nothing is enrolled or stopped there.
        const { outcome } = await recordProviderEvent(orgId, event, { emitEvents, actAtProviders: false });
        if (outcome === 'applied') eventsApplied += 1;
        else eventsDuplicate += 1;
      }
    },
  );

  onProgress('jobs', 0, document.jobs.length);
  await upsertJobs(orgId, jobsOf(document));
  onProgress('jobs', document.jobs.length, document.jobs.length);

  return report(document, {
    assignmentsCreated,
    messagesWritten,
    eventsApplied,
    eventsDuplicate,
    path: 'transactional',
  });
}

/** `Map.groupBy`, which Node 20 lacks. */
export function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
