import { createHash } from 'node:crypto';
import type * as z from 'zod/mini';
import { normalizeDomain } from '#schemas/domain-names.ts';
import type { ImportDocument } from '#schemas/import.ts';
import { ItemImage, type ItemKey } from '#store/bulk-writes.ts';
import { type ContactRecord, contactKey, contacts, newContact } from '#store/contacts.ts';
import * as keys from '#store/item-keys.ts';
import { assignmentItem } from '#store/item-schemas/assignments.ts';
import { campaignItem } from '#store/item-schemas/campaigns.ts';
import { contactItem } from '#store/item-schemas/contacts.ts';
import { messageItem } from '#store/item-schemas/messages.ts';
import { accountWrites } from './accounts.ts';
import { creationWrites, type NewAssignment } from './assignments.ts';
import { newCampaignWrites, sequenceHomeWrites } from './campaigns.ts';
import { blockContactWrites, contactFields } from './contacts.ts';
import { historyChunks, historyChunkWrites } from './messages.ts';
import { type EventReads, eventWrites } from './provider-events.ts';

/**
 * The import's bulk path: a validated document loaded into an organization
 * that holds none of its items yet. Each section is replayed in memory in the
 * order and through the very write builders of the transactional import
 * (campaigns, accounts, contacts, assignments, message history, events), so
 * every item and aggregate comes out as those transactions would leave it;
 * only then is the image written, with BatchWriteItem
 * (shared/store/bulk-writes.ts). Exclusions and jobs are not in the image:
 * the import applies them as it always does.
 */

/** The image of the document's items, and what its events did. */
export interface BulkImportPlan {
  image: ItemImage;
  eventsApplied: number;
  eventsDuplicate: number;
}

/** What the plan needs besides the document. */
export interface BulkImportContext {
  /** The document's account domains that are on the exclusion list (their accounts are not listed). */
  excludedDomains: ReadonlySet<string>;
  /** Ids for the messages events carry without one, allocated beforehand (`eventMessagesWithoutId`). */
  messageIds: readonly number[];
}

/**
 * The assignments the document creates, by campaign in document order, each
 * with its sequence and its contact as the contacts section left it.
 */
export function importedAssignments(
  document: ImportDocument,
  contactsById: ReadonlyMap<number, ContactRecord>,
): Map<number, NewAssignment[]> {
  const sequences = new Map(
    document.campaigns.flatMap((campaign) =>
      campaign.sequences.map((sequence) => [sequence.id, sequence] as const),
    ),
  );
  const byCampaign = new Map<number, NewAssignment[]>();
  for (const assignment of document.assignments) {
    const list = byCampaign.get(assignment.campaign_id) ?? [];
    list.push({
      assignmentId: assignment.id,
      sequence: sequences.get(assignment.sequence_id)!,
      contact: contactsById.get(assignment.contact_id)!,
      status: assignment.status,
      createdAt: assignment.created_at ?? new Date().toISOString(),
      approvedAt: assignment.approved_at,
      sequencedAt: assignment.sequenced_at,
      completedAt: assignment.completed_at,
      bouncedAt: assignment.bounced_at,
      unsubscribedAt: assignment.unsubscribed_at,
      variables: assignment.variables,
    });
    byCampaign.set(assignment.campaign_id, list);
  }
  return byCampaign;
}

/**
 * The keys of the items the document creates that a load must not find
 * already (campaigns, accounts and their domains, contacts, assignments,
 * messages, event markers): when none exists, the organization holds nothing
 * of the document and the bulk path writes exactly what the transactional
 * one would. Sequence links, jobs and exclusions are replaced in both paths.
 */
export function firstLoadKeys(orgId: number, document: ImportDocument): ItemKey[] {
  const all: ItemKey[] = [
    ...document.campaigns.map((campaign) => keys.campaign(orgId, campaign.id)),
    ...document.accounts.flatMap((account) => [
      keys.account(orgId, account.id),
      keys.accountDomain(orgId, normalizeDomain(account.domain)!),
    ]),
    ...document.contacts.map((contact) =>
      contactKey(orgId, { id: contact.id, email: contact.email ?? null }),
    ),
    ...document.assignments.map((assignment) => keys.assignment(orgId, assignment.id)),
    ...document.messages.map((message) => keys.message(orgId, message.id)),
    ...document.events.flatMap((event) => [
      keys.providerEvent(orgId, event.id),
      ...('message' in event && event.message.id !== undefined
        ? [keys.message(orgId, event.message.id)]
        : []),
    ]),
  ];
  // A replayed event names its marker twice; a batch read refuses a key given twice.
  return [...new Map(all.map((key) => [`${key.pk}\u0000${key.sk}`, key])).values()];
}

/** How many of the document's events carry a message without an id (each gets one allocated). */
export function eventMessagesWithoutId(document: ImportDocument): number {
  return document.events.filter((event) => 'message' in event && event.message.id === undefined).length;
}

const parsedOrNull = <S extends z.ZodMiniType>(schema: S, item: unknown): z.output<S> | null =>
  item === undefined ? null : schema.parse(item);

/** Replays the document into an image of the items its import leaves (see the module's comment). */
export async function planBulkImport(
  orgId: number,
  document: ImportDocument,
  context: BulkImportContext,
): Promise<BulkImportPlan> {
  const image = new ItemImage();
  const assignmentOf = (assignmentId: number) =>
    assignmentItem.parse(image.get(keys.assignment(orgId, assignmentId)));

  for (const campaign of document.campaigns) {
    image.apply(newCampaignWrites(orgId, campaign));
    image.apply(sequenceHomeWrites(orgId, campaign));
  }

  for (const account of document.accounts) {
    const domain = normalizeDomain(account.domain)!;
    const { writes } = accountWrites(
      orgId,
      { ...account, domain },
      context.excludedDomains.has(domain),
      null,
    );
    image.apply(writes);
  }

  const contactsById = new Map<number, ContactRecord>();
  for (const input of document.contacts) {
    const contact = newContact(contactFields(input));
    image.apply([contacts.putNew(orgId, contact)]);
    if (input.blocked) image.apply(blockContactWrites(orgId, contact, { stopAtProviders: false }));
    contactsById.set(input.id, input.blocked ? { ...contact, blocked: true } : contact);
  }

  for (const [campaignId, inputs] of importedAssignments(document, contactsById)) {
    image.apply(creationWrites(orgId, campaignId, inputs, false));
  }

  const historyByAssignment = new Map<number, ImportDocument['messages']>();
  for (const message of document.messages) {
    const history = historyByAssignment.get(message.assignment_id);
    if (history) history.push(message);
    else historyByAssignment.set(message.assignment_id, [message]);
  }
  for (const [assignmentId, history] of historyByAssignment) {
    for (const chunk of historyChunks(history, false)) {
      image.apply(historyChunkWrites(orgId, assignmentOf(assignmentId), chunk, false));
    }
  }

  const messageIds = [...context.messageIds];
  const reads: EventReads = {
    contact: async (of, contact) => parsedOrNull(contactItem, image.get(contactKey(of, contact))),
    message: async (of, messageId) => parsedOrNull(messageItem, image.get(keys.message(of, messageId))),
    campaign: async (of, campaignId) => parsedOrNull(campaignItem, image.get(keys.campaign(of, campaignId))),
    async newMessageId() {
      const id = messageIds.shift();
      if (id === undefined) throw new Error('The bulk import ran out of allocated message ids');
      return id;
    },
  };
  let eventsApplied = 0;
  let eventsDuplicate = 0;
  // In document order, as the validation simulated them; a replayed id finds its marker and changes nothing.
  for (const event of document.events) {
    if (image.has(keys.providerEvent(orgId, event.id))) {
      eventsDuplicate += 1;
      continue;
    }
    // History: its leads are at the provider already, so nothing is enrolled or stopped there.
    const writes = await eventWrites(
      orgId,
      event,
      assignmentOf(event.assignment_id),
      { emitEvents: false, actAtProviders: false, replyThread: undefined },
      reads,
    );
    image.apply(writes);
    eventsApplied += 1;
  }
  return { image, eventsApplied, eventsDuplicate };
}

/**
 * The digest of a document, which names its bulk import while it is under
 * way: the same file gives the same digest (its parsed form, snippet
 * variables included).
 */
export function documentDigest(document: ImportDocument): string {
  const json = JSON.stringify(document, (_, value: unknown) =>
    value instanceof Map ? Object.fromEntries(value) : value,
  );
  return createHash('sha256').update(json).digest('hex');
}
