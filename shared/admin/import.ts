import type * as z from 'zod/mini';
import { upsertAccount } from '#domain/accounts.ts';
import { createAssignments, type NewAssignment } from '#domain/assignments.ts';
import {
  documentDigest,
  eventMessagesWithoutId,
  firstLoadKeys,
  importedAssignments,
  planBulkImport,
} from '#domain/bulk-import.ts';
import { upsertCampaign } from '#domain/campaigns.ts';
import { blockContactWrites, type ContactRecord, normalizeEmail, upsertContact } from '#domain/contacts.ts';
import { addExclusion, findExclusions } from '#domain/exclusions.ts';
import { upsertJobs } from '#domain/jobs.ts';
import { transition } from '#domain/lifecycle.ts';
import { recordMessageHistory } from '#domain/messages.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import { emitNewOpportunities, type NewOpportunity } from '#domain/webhook-events.ts';
import { normalizeDomain } from '#schemas/domain-names.ts';
import { type ImportDocument, importDocument, type SequenceInput } from '#schemas/import.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';
import { type BulkImportUnderWay, bulkImports, findExistingKeys, putItems } from '#store/bulk-writes.ts';
import { allocateIds, reserveIdsUpTo } from '#store/ids.ts';
import { mapLimit, transact } from '#store/transactions.ts';

/**
 * The operator import. The whole document is validated first (shape, then
 * references, uniqueness and the lifecycle of its events, simulated from each
 * assignment's initial status); every error is reported with its JSON path and
 * nothing is written if there is any. Then it is applied through the same
 * domain operations as live traffic, so the aggregates equal a live replay,
 * and every step is idempotent, so importing the same file twice leaves the
 * same state. A first load (none of the document's items in the organization)
 * takes the bulk path: the same writes replayed in memory, the resulting
 * items written in batches (docs/import-format.md#bulk-path).
 */

/** One validation error: where in the document, and what is wrong. */
export interface ImportError {
  path: string;
  message: string;
}

export type ValidationResult = { ok: true; document: ImportDocument } | { ok: false; errors: ImportError[] };

/** `$.campaigns[0].sequences[1].provider` */
export function jsonPath(path: readonly PropertyKey[]): string {
  return `$${path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}`;
}

const issuesToErrors = (error: z.core.$ZodError): ImportError[] =>
  error.issues.map((issue) => ({ path: jsonPath(issue.path), message: issue.message }));

/** Validates an import document completely; returns the parsed document or every error found. */
export function validateImport(raw: unknown): ValidationResult {
  const parsed = importDocument.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error) };
  const document = parsed.data;
  const errors: ImportError[] = [];
  const error = (path: (string | number)[], message: string) =>
    errors.push({ path: jsonPath(path), message });
  const unique = <T>(items: T[], idOf: (item: T) => string | number, section: string, field = 'id') => {
    const seen = new Map<string | number, number>();
    items.forEach((item, index) => {
      const id = idOf(item);
      const first = seen.get(id);
      if (first !== undefined) error([section, index, field], `duplicates ${section}[${first}] (${id})`);
      else seen.set(id, index);
    });
  };

  unique(document.campaigns, (campaign) => campaign.id, 'campaigns');
  const sequences = new Map<number, { campaignId: number; sequence: SequenceInput }>();
  // One provider campaign is one sequence: its webhooks must name one.
  const externalIds = new Map<string, number>();
  for (const [campaignIndex, campaign] of document.campaigns.entries()) {
    for (const [sequenceIndex, sequence] of campaign.sequences.entries()) {
      if (sequences.has(sequence.id)) {
        error(
          ['campaigns', campaignIndex, 'sequences', sequenceIndex, 'id'],
          `sequence ${sequence.id} appears twice`,
        );
      }
      sequences.set(sequence.id, { campaignId: campaign.id, sequence });
      if (!sequence.external_id) continue;
      const external = `${sequence.provider} campaign ${sequence.external_id}`;
      const holder = externalIds.get(external);
      if (holder !== undefined) {
        error(
          ['campaigns', campaignIndex, 'sequences', sequenceIndex, 'external_id'],
          `${external} is also sequence ${holder}'s`,
        );
      } else externalIds.set(external, sequence.id);
    }
  }
  const campaignIds = new Set(document.campaigns.map((campaign) => campaign.id));

  unique(document.accounts, (account) => account.id, 'accounts');
  const domains = new Map<string, number>();
  document.accounts.forEach((account, index) => {
    const domain = normalizeDomain(account.domain);
    if (!domain)
      error(['accounts', index, 'domain'], `no usable domain in ${JSON.stringify(account.domain)}`);
    else if (domains.has(domain))
      error(['accounts', index, 'domain'], `domain ${domain} is also accounts[${domains.get(domain)}]'s`);
    else domains.set(domain, index);
    const qualified = new Set<number>();
    account.campaigns.forEach((qualification, qualificationIndex) => {
      if (qualified.has(qualification.campaign_id)) {
        error(
          ['accounts', index, 'campaigns', qualificationIndex, 'campaign_id'],
          `campaign ${qualification.campaign_id} appears twice`,
        );
      }
      qualified.add(qualification.campaign_id);
      if (!campaignIds.has(qualification.campaign_id)) {
        error(
          ['accounts', index, 'campaigns', qualificationIndex, 'campaign_id'],
          `campaign ${qualification.campaign_id} is not in the document`,
        );
      }
    });
  });

  unique(document.contacts, (contact) => contact.id, 'contacts');
  const emails = new Map<string, number>();
  for (const [index, contact] of document.contacts.entries()) {
    if (!contact.email) continue;
    const email = normalizeEmail(contact.email);
    const first = emails.get(email);
    if (first !== undefined) error(['contacts', index, 'email'], `duplicates contacts[${first}] (${email})`);
    else emails.set(email, index);
  }
  const contacts = new Set(document.contacts.map((contact) => contact.id));

  unique(document.assignments, (assignment) => assignment.id, 'assignments');
  const statuses = new Map<number, AssignmentStatus>();
  const contactInSequence = new Map<string, number>();
  document.assignments.forEach((assignment, index) => {
    const sequence = sequences.get(assignment.sequence_id);
    if (!campaignIds.has(assignment.campaign_id))
      error(
        ['assignments', index, 'campaign_id'],
        `campaign ${assignment.campaign_id} is not in the document`,
      );
    else if (!sequence || sequence.campaignId !== assignment.campaign_id) {
      error(
        ['assignments', index, 'sequence_id'],
        `sequence ${assignment.sequence_id} is not a sequence of campaign ${assignment.campaign_id}`,
      );
    }
    if (!contacts.has(assignment.contact_id))
      error(['assignments', index, 'contact_id'], `contact ${assignment.contact_id} is not in the document`);
    const pair = `${assignment.sequence_id}/${assignment.contact_id}`;
    if (contactInSequence.has(pair)) {
      error(
        ['assignments', index, 'contact_id'],
        `contact ${assignment.contact_id} already has assignments[${contactInSequence.get(pair)}] in sequence ${assignment.sequence_id}`,
      );
    } else contactInSequence.set(pair, index);
    statuses.set(assignment.id, assignment.status);
  });

  unique(document.messages, (message) => message.id, 'messages');
  document.messages.forEach((message, index) => {
    if (!statuses.has(message.assignment_id))
      error(
        ['messages', index, 'assignment_id'],
        `assignment ${message.assignment_id} is not in the document`,
      );
  });

  // Message ids are shared by `messages` and the messages events carry; an opened event names one of its assignment's.
  const messageOwners = new Map(document.messages.map((message) => [message.id, message.assignment_id]));
  const appliedEvents = new Set<string>();
  document.events.forEach((event, index) => {
    const status = statuses.get(event.assignment_id);
    if (status === undefined) {
      error(['events', index, 'assignment_id'], `assignment ${event.assignment_id} is not in the document`);
      return;
    }
    if (appliedEvents.has(event.id)) return; // a replayed id changes nothing
    appliedEvents.add(event.id);
    if ('message' in event && event.message.id !== undefined) {
      if (messageOwners.has(event.message.id))
        error(['events', index, 'message', 'id'], `message ${event.message.id} appears twice`);
      else messageOwners.set(event.message.id, event.assignment_id);
    }
    if (
      event.type === 'opened' &&
      event.message_id !== undefined &&
      messageOwners.get(event.message_id) !== event.assignment_id
    ) {
      error(
        ['events', index, 'message_id'],
        `message ${event.message_id} is not a message of assignment ${event.assignment_id} before this event`,
      );
    }
    const next = transition(status, event.type);
    if (!next)
      error(
        ['events', index, 'type'],
        `${event.type} is not possible for assignment ${event.assignment_id}, which is ${status} at that point`,
      );
    else statuses.set(event.assignment_id, next.status);
  });

  document.jobs.forEach((job, index) => {
    if (!normalizeDomain(job.domain))
      error(['jobs', index, 'domain'], `no usable domain in ${JSON.stringify(job.domain)}`);
  });
  document.exclusions.forEach((exclusion, index) => {
    if ('domain' in exclusion && !normalizeDomain(exclusion.domain)) {
      error(['exclusions', index, 'domain'], `no usable domain in ${JSON.stringify(exclusion.domain)}`);
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, document };
}

/** Which way an import wrote: the bulk path (a first load) or the transactional one. */
export type ImportPath = 'bulk' | 'transactional';

/** What an import did. */
export interface ImportReport {
  campaigns: number;
  accounts: number;
  contacts: number;
  assignmentsCreated: number;
  assignmentsExisting: number;
  messagesWritten: number;
  eventsApplied: number;
  eventsDuplicate: number;
  jobs: number;
  exclusions: number;
  path: ImportPath;
}

export type ProgressListener = (phase: string, done: number, total: number) => void;

/** How an import runs. */
export interface ImportOptions {
  /**
   * Emit the webhook events the imported changes cause (New Opportunities,
   * First Touch, Positive Reply); off by default, so loading history does not
   * flood subscribers. Only the transactional path emits them.
   */
  emitEvents?: boolean;
  /**
   * `auto` (the default): the bulk path when no events are to be emitted and
   * the organization holds none of the document's items (one batch read of
   * their keys), else the transactional path. `bulk` skips that read, for a
   * caller that knows the organization is new (the demo seed, which has just
   * created it); `transactional` always applies change by change.
   */
  path?: 'auto' | ImportPath;
  /**
   * The caller created the organization for this import moments ago (the
   * demo seed): no provider holds a lead of it, so its exclusions stop
   * nothing, and the import queues no work (the local stack seeds a new table
   * before its stream is on).
   */
  organizationIsNew?: boolean;
}

/**
 * Requests in flight during an import. Most writes of one campaign also update
 * its counter item (and every write the organization's analytics item), so
 * more parallel transactions would only queue on those items: DynamoDB cancels
 * conflicting transactions, DynamoDB Local times out waiting for its locks.
 */
const CONCURRENCY = 6;
/** Assignment batches (49 assignments each) of one campaign in flight. */
const ASSIGNMENT_BATCH_CONCURRENCY = 2;

const noProgress: ProgressListener = () => undefined;

/**
 * Applies a validated document to an organization, through the bulk path on
 * a first load (shared/domain/bulk-import.ts), else change by change through
 * the same domain operations as live traffic (see ImportOptions.path). Either
 * way the table ends the same, aggregates included.
 */
export async function applyImport(
  orgId: number,
  document: ImportDocument,
  onProgress: ProgressListener = noProgress,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const emitEvents = options.emitEvents === true;
  const organizationIsNew = options.organizationIsNew === true;
  const requested = options.path ?? 'auto';
  if (requested === 'bulk' && emitEvents) {
    throw new Error(
      'The bulk import emits no webhook events: import with them through the transactional path',
    );
  }
  const digest = documentDigest(document);
  const reserved = reserveDocumentIds(document);
  // Awaited by either path; a failure before then must not go unhandled meanwhile.
  reserved.catch(() => undefined);
  const chosen =
    requested === 'auto'
      ? await choosePath(orgId, document, digest, emitEvents, onProgress)
      : { path: requested, underWay: null };
  if (chosen.path === 'bulk')
    return bulkImport(orgId, document, digest, chosen.underWay, reserved, onProgress, organizationIsNew);
  await reserved;
  return transactionalImport(orgId, document, onProgress, emitEvents, organizationIsNew);
}

/** Raises the id counters past the document's ids, so ids allocated later never collide with them. */
async function reserveDocumentIds(document: ImportDocument): Promise<void> {
  const maxId = (ids: number[]) => ids.reduce((max, id) => Math.max(max, id), 0);
  await Promise.all([
    reserveIdsUpTo('campaign', maxId(document.campaigns.map((campaign) => campaign.id))),
    reserveIdsUpTo(
      'sequence',
      maxId(document.campaigns.flatMap((campaign) => campaign.sequences.map((sequence) => sequence.id))),
    ),
    reserveIdsUpTo('account', maxId(document.accounts.map((account) => account.id))),
    reserveIdsUpTo('contact', maxId(document.contacts.map((contact) => contact.id))),
    reserveIdsUpTo('assignment', maxId(document.assignments.map((assignment) => assignment.id))),
    // Events may carry message ids too; a later allocation must not hand one of them out again.
    reserveIdsUpTo(
      'message',
      maxId([
        ...document.messages.map((message) => message.id),
        ...document.events.flatMap((event) =>
          'message' in event && event.message.id ? [event.message.id] : [],
        ),
      ]),
    ),
  ]);
}

/**
 * The bulk path when it writes what the transactional one would (no events to
 * emit, none of the items there), or to finish an interrupted bulk import of
 * the same document (which only the bulk path can: its counters are added at
 * its end); else the transactional path.
 */
async function choosePath(
  orgId: number,
  document: ImportDocument,
  digest: string,
  emitEvents: boolean,
  onProgress: ProgressListener,
): Promise<{ path: ImportPath; underWay: BulkImportUnderWay | null }> {
  const itemKeys = firstLoadKeys(orgId, document);
  onProgress('checking for existing items', 0, itemKeys.length);
  const [underWay, existing] = await Promise.all([
    bulkImports.find(orgId, digest),
    emitEvents ? [] : findExistingKeys(itemKeys),
  ]);
  onProgress('checking for existing items', itemKeys.length, itemKeys.length);
  if (underWay && emitEvents) {
    throw new Error(
      `A bulk import of this document was interrupted in organization ${orgId}: import it again without webhook events to finish it`,
    );
  }
  if (underWay) return { path: 'bulk', underWay };
  return { path: !emitEvents && existing.length === 0 ? 'bulk' : 'transactional', underWay: null };
}

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
async function bulkImport(
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
    onProgress('writing items', written, items.length);
  };
  onProgress('writing items', 0, items.length);
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
async function transactionalImport(
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

function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
