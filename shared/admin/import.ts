import type * as z from 'zod/mini';
import { documentDigest, firstLoadKeys } from '#domain/bulk-import.ts';
import { normalizeEmail } from '#domain/contacts.ts';
import { transition } from '#domain/lifecycle.ts';
import { normalizeDomain } from '#schemas/domain-names.ts';
import { type ImportDocument, importDocument, type SequenceInput } from '#schemas/import.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';
import { type BulkImportUnderWay, bulkImports, findExistingKeys } from '#store/bulk-writes.ts';
import { reserveIdsUpTo } from '#store/ids.ts';
import { bulkImport, transactionalImport } from './import-paths.ts';

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
