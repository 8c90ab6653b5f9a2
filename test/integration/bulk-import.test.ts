import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { demoDocument } from '#admin/demo.ts';
import { applyImport } from '#admin/import.ts';
import { documentDigest } from '#domain/bulk-import.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { normalizeDomain } from '#schemas/domain-names.ts';
import type { ImportDocument } from '#schemas/import.ts';
import { ASSIGNMENT_STATUSES } from '#schemas/resources.ts';
import { contactKey, normalizeLinkedinUrl } from '#store/contacts.ts';
import { ANALYTICS_SHARDS } from '#store/counter-shards.ts';
import { keys } from '#store/keys.ts';
import { mapLimit } from '#store/transactions.ts';
import { injectDynamoFaults } from '../support/dynamo-faults.ts';
import { smallDocument } from '../support/fixtures.ts';
import { validImport } from '../support/import.ts';
import { countRequests } from '../support/request-counter.ts';

/**
 * The import's bulk path leaves the table as the transactional path does: the
 * same document imported both ways into two organizations gives the same
 * items, every attribute of every item, read back with Queries of every
 * partition and index list the document fills (never a Scan), once the
 * organization's id is taken out of the keys. Times the import itself reads
 * from the clock (an exclusion's `updatedAt`, the organization's creation)
 * are the only other difference.
 */

type Item = Record<string, unknown>;

const NOW = new Date('2026-04-15T12:00:00.000Z');
const QUERIES_IN_FLIGHT = 8;
/** The demo as the e2e stacks seed it (their OUTREACH_DEMO_ACCOUNTS). */
const SMALL_DEMO_ACCOUNTS = 20;
/** Attributes written with the time of the import, not the document's: an exclusion's, the organization's. */
const importTime = (item: Item): string | null =>
  item.type === 'exclusion' ? 'updatedAt' : item.type === 'organization' ? 'createdAt' : null;

/** A partition of the table, or of an index (its items in the index's order). */
interface ListOfItems {
  index?: 'gsi1' | 'gsi2';
  partition: string;
}

async function query(input: ListOfItems): Promise<Item[]> {
  const attribute = `${input.index ?? ''}pk`;
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName(),
        ...(input.index ? { IndexName: input.index } : { ConsistentRead: true }),
        KeyConditionExpression: `${attribute} = :pk`,
        ExpressionAttributeValues: { ':pk': input.partition },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every partition and index list the document's import fills, for one organization. */
function partitionsOf(orgId: number, document: ImportDocument): ListOfItems[] {
  const eventMessageIds = document.events.flatMap((event) =>
    'message' in event && event.message.id !== undefined ? [event.message.id] : [],
  );
  const tablePartitions = [
    keys.organization(orgId).pk,
    ...document.accounts.flatMap((account) => [
      keys.account(orgId, account.id).pk,
      keys.accountDomain(orgId, normalizeDomain(account.domain)!).pk,
    ]),
    ...document.contacts.map(
      (contact) => contactKey(orgId, { id: contact.id, email: contact.email ?? null }).pk,
    ),
    ...document.assignments.map((assignment) => keys.assignment(orgId, assignment.id).pk),
    ...[...document.messages.map((message) => message.id), ...eventMessageIds].map(
      (messageId) => keys.message(orgId, messageId).pk,
    ),
    ...document.events.map((event) => keys.providerEvent(orgId, event.id).pk),
    ...document.campaigns.flatMap((campaign) =>
      campaign.sequences.flatMap((sequence) =>
        sequence.external_id ? [keys.sequenceLink(orgId, sequence.provider, sequence.external_id).pk] : [],
      ),
    ),
    ...document.jobs.map((job) => keys.job(orgId, job.id).pk),
    ...document.exclusions.map((exclusion) =>
      'email' in exclusion
        ? keys.exclusion(orgId, 'email', exclusion.email.toLowerCase()).pk
        : keys.exclusion(orgId, 'domain', normalizeDomain(exclusion.domain)!).pk,
    ),
    keys.exclusionShard(orgId, 'email', 0).pk,
    // The marker of the bulk import is gone once it is done.
    keys.bulkImport(orgId, documentDigest(document)).pk,
  ];
  const indexLists = [
    ...document.campaigns.flatMap((campaign) => [
      keys.campaignAccountsIndex(orgId, campaign.id).gsi1pk,
      keys.campaignAssignmentsIndex(orgId, campaign.id).gsi1pk,
      keys.campaignMessagesIndex(orgId, campaign.id).gsi1pk,
    ]),
    ...document.jobs.map((job) => keys.jobsOfDomainIndex(orgId, normalizeDomain(job.domain)!).gsi1pk),
  ].map((partition) => ({ index: 'gsi1' as const, partition }));
  const secondIndexLists = [
    ...document.campaigns.flatMap((campaign) =>
      ASSIGNMENT_STATUSES.map((status) => keys.campaignStatusIndex(orgId, campaign.id, status).gsi2pk),
    ),
    ...document.contacts.flatMap((contact) => {
      const url = contact.linkedin_url ? normalizeLinkedinUrl(contact.linkedin_url) : null;
      return url ? [keys.contactsByLinkedin(orgId, url).gsi2pk] : [];
    }),
  ].map((partition) => ({ index: 'gsi2' as const, partition }));
  const lists: ListOfItems[] = [
    ...tablePartitions.map((partition) => ({ partition })),
    ...indexLists,
    ...secondIndexLists,
  ];
  const unique = new Map(lists.map((list) => [`${list.index ?? 'table'} ${list.partition}`, list] as const));
  return [...unique.values()];
}

/** A value with the organization's id taken out (of keys and `orgId`). */
function normalized(value: unknown, orgId: number, name = ''): unknown {
  if (typeof value === 'string') return value.replace(new RegExp(`^ORG#${orgId}(?=#|$)`), 'ORG#*');
  if (name === 'orgId' && value === orgId) return '*';
  if (value instanceof Set) return new Set([...value].map((member) => normalized(member, orgId)));
  if (Array.isArray(value)) return value.map((member) => normalized(member, orgId));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, normalized(member, orgId, key)]),
    );
  }
  return value;
}

/**
 * Every list the import fills, read back, by its normalized name. A job's
 * sequence number comes from a counter all organizations share: it is
 * replaced by its rank among the organization's jobs.
 */
async function contentsOf(orgId: number, document: ImportDocument): Promise<Record<string, unknown>> {
  const read = await mapLimit(partitionsOf(orgId, document), QUERIES_IN_FLIGHT, async (list) => ({
    list,
    items: await query(list),
  }));
  // Counter shards, added to the items they shard as reads add them: the bulk path folds them in memory.
  const analyticsShards = await mapLimit(
    Array.from({ length: ANALYTICS_SHARDS }, (_, shard) => ({
      partition: keys.analyticsShard(orgId, shard).pk,
    })),
    QUERIES_IN_FLIGHT,
    query,
  );
  const keyOf = (item: Item) => ({ pk: String(item.pk), sk: String(item.sk) });
  const tableItems = read.filter(({ list }) => !list.index).flatMap(({ items }) => items);
  const homes = new Map(tableItems.map((item) => [`${item.pk} ${item.sk}`, item]));
  for (const shard of [...analyticsShards.flat(), ...tableItems]) {
    const home = keys.counterHome(keyOf(shard));
    if (!home) continue;
    const target = homes.get(`${home.pk} ${home.sk}`);
    if (!target) throw new Error(`A counter shard ${shard.pk} / ${shard.sk} without its item`);
    for (const [name, value] of Object.entries(shard)) {
      if (name !== 'pk' && name !== 'sk') target[name] = Number(target[name] ?? 0) + Number(value);
    }
  }
  const lists = read.map(({ list, items }) => ({
    list,
    items: items.filter((item) => keys.counterHome(keyOf(item)) === null),
  }));
  const jobSequences = [
    ...new Set(
      lists.flatMap(({ items }) =>
        items.filter((item) => item.type === 'job').map((item) => Number(item.sequence)),
      ),
    ),
  ].sort((a, b) => a - b);
  const comparable = (item: Item): unknown => {
    const time = importTime(item);
    const withoutTime = time ? { ...item, [time]: '<time of the import>' } : item;
    if (item.type !== 'job') return normalized(withoutTime, orgId);
    const rank = jobSequences.indexOf(Number(item.sequence));
    return normalized(
      {
        ...withoutTime,
        sequence: `job ${rank}`,
        gsi1sk: String(item.gsi1sk).replace(/#\d+$/, `#job ${rank}`),
        gsi2pk: `job ${rank}`,
      },
      orgId,
    );
  };
  return Object.fromEntries(
    lists.map(({ list, items }) => [
      `${list.index ?? 'table'} ${normalized(list.partition, orgId)}`,
      items.map(comparable),
    ]),
  );
}

/** The document imported into a new organization of each path, and what each holds afterwards. */
async function importedBothWays(raw: unknown) {
  const document = validImport(raw);
  const bulk = await createOrganization('Both Ways Inc');
  const transactional = await createOrganization('Both Ways Inc');
  const bulkReport = await applyImport(bulk.orgId, document);
  const transactionalReport = await applyImport(transactional.orgId, document, undefined, {
    path: 'transactional',
  });
  return {
    document,
    bulkReport,
    transactionalReport,
    bulk: await contentsOf(bulk.orgId, document),
    transactional: await contentsOf(transactional.orgId, document),
  };
}

/**
 * The fixture with the history that is hard to get right: a classification
 * before the reply that takes it and one after, a forward, a replayed event,
 * opens and clicks without a message, a contact blocked by an event while it
 * has two assignments, a contact imported blocked, an excluded account, snippet
 * variables, a linked sequence, and one assignment's history over more than
 * one transaction (90 messages each).
 */
function intricateDocument(): unknown {
  const base = smallDocument();
  const campaigns = structuredClone(base.campaigns) as Item[];
  (campaigns[0]!.sequences as Item[])[0]!.external_id = 'sl-campaign-1';
  const longHistory = Array.from({ length: 95 }, (_, index) => ({
    id: 1_000 + index,
    assignment_id: 505,
    type: index % 3 === 2 ? 'received' : 'sent',
    step_type: index % 3 === 2 ? 'reply' : 'email',
    subject: index % 5 === 0 ? null : `Subject ${index}`,
    body: `Message ${index}`,
    open_count: index % 4,
    sender_email: index % 3 === 2 ? null : 'rep@seller.com',
    created_at: new Date(Date.UTC(2026, 2, 1, index)).toISOString(),
  }));
  const at = (day: number, hour = 0) => new Date(Date.UTC(2026, 3, day, hour)).toISOString();
  return smallDocument({
    campaigns,
    contacts: [...base.contacts!, { id: 405, email: 'eve@acme.com', full_name: 'Eve', blocked: true }],
    assignments: [
      ...base.assignments!,
      {
        id: 505,
        campaign_id: 102,
        sequence_id: 203,
        contact_id: 402,
        status: 'in-progress',
        created_at: at(1),
        variables: { first_line: 'Saw your expansion news' },
      },
      {
        id: 506,
        campaign_id: 101,
        sequence_id: 202,
        contact_id: 401,
        status: 'in-progress',
        created_at: at(2),
      },
      {
        id: 507,
        campaign_id: 102,
        sequence_id: 203,
        contact_id: 405,
        status: 'scheduled',
        created_at: at(3),
      },
    ],
    messages: [...base.messages!, ...longHistory],
    events: [
      ...base.events!,
      { id: 'evt-5', assignment_id: 505, type: 'reply_classified', at: at(9), response_type: 'positive' },
      {
        id: 'evt-6',
        assignment_id: 505,
        type: 'reply_received',
        at: at(9, 1),
        message: { id: 700, body: 'Yes!' },
      },
      {
        id: 'evt-7',
        assignment_id: 505,
        type: 'reply_classified',
        at: at(9, 2),
        response_type: 'not_interested',
      },
      { id: 'evt-8', assignment_id: 505, type: 'forwarded', at: at(9, 3), message: { id: 701, body: 'Fwd' } },
      {
        id: 'evt-1',
        assignment_id: 501,
        type: 'message_sent',
        at: at(10),
        message: { id: 710, step_type: 'email' },
      },
      { id: 'evt-9', assignment_id: 506, type: 'clicked', at: at(10, 1) },
      { id: 'evt-10', assignment_id: 506, type: 'opened', at: at(10, 2) },
      { id: 'evt-11', assignment_id: 506, type: 'completed', at: at(10, 3) },
      { id: 'evt-12', assignment_id: 506, type: 'contact_blocked', at: at(10, 4) },
      {
        id: 'evt-13',
        assignment_id: 507,
        type: 'message_sent',
        at: at(11),
        message: { id: 702, step_type: 'email', subject: 'Hello Eve', body: 'Hi', open_count: 1 },
      },
      { id: 'evt-14', assignment_id: 507, type: 'unsubscribed', at: at(11, 1) },
      { id: 'evt-15', assignment_id: 504, type: 'sequenced', at: at(12) },
      { id: 'evt-16', assignment_id: 502, type: 'approved', at: at(12, 1) },
    ],
    exclusions: [...base.exclusions!, { email: 'Bob@Globex.io' }],
  });
}

describe('the bulk import', () => {
  // Seconds (the transactional import, then a Query per list); the margin is for a loaded machine.
  it('leaves the same items as the transactional import for the small demo', async () => {
    // Act
    const result = await importedBothWays(demoDocument({ now: NOW, accounts: SMALL_DEMO_ACCOUNTS }));

    // Assess
    expect(result.bulkReport.path).toBe('bulk');
    expect(result.transactionalReport.path).toBe('transactional');
    expect({ ...result.bulkReport, path: 'transactional' }).toEqual(result.transactionalReport);
    expect(Object.keys(result.bulk).length).toBeGreaterThan(500);
    expect(result.bulk).toEqual(result.transactional);
  }, 120_000);

  it('leaves the same items as the transactional import for an intricate history', async () => {
    // Act
    const result = await importedBothWays(intricateDocument());

    // Assess
    expect(result.bulkReport).toMatchObject({ path: 'bulk', eventsApplied: 16, eventsDuplicate: 1 });
    expect({ ...result.bulkReport, path: 'transactional' }).toEqual(result.transactionalReport);
    expect(result.bulk).toEqual(result.transactional);
  });

  it('writes a first load in batches, with one transaction for the counters other items share', async () => {
    // Prepare
    const document = validImport(demoDocument({ now: NOW, accounts: SMALL_DEMO_ACCOUNTS }));
    const { orgId } = await createOrganization('Batches Inc');
    const withoutExclusions = { ...document, exclusions: [] };

    // Act
    const { result, byCommand } = await countRequests(() => applyImport(orgId, withoutExclusions));

    // Assess
    expect(result.path).toBe('bulk');
    expect(byCommand.TransactWriteItems).toBe(1);
    expect(byCommand.BatchWriteItem).toBeGreaterThan(10);
  });

  it('finishes an interrupted import when the same document is imported again, adding its counters once', async () => {
    // Prepare: the import stops when its third batch of items cannot be written
    const document = validImport(intricateDocument());
    const interrupted = await createOrganization('Both Ways Inc');
    const transactional = await createOrganization('Both Ways Inc');
    await applyImport(transactional.orgId, document, undefined, { path: 'transactional' });
    const faults = injectDynamoFaults((attempt) =>
      attempt.command === 'BatchWriteItem' && attempt.callOfCommand === 3
        ? { before: new Error('The connection was lost') }
        : undefined,
    );
    try {
      await expect(applyImport(interrupted.orgId, document)).rejects.toThrow('The connection was lost');
    } finally {
      faults.remove();
    }

    // Act
    const resumed = await applyImport(interrupted.orgId, document);

    // Assess
    expect(resumed.path).toBe('bulk');
    expect(await contentsOf(interrupted.orgId, document)).toEqual(
      await contentsOf(transactional.orgId, document),
    );
  });

  it('takes the transactional path when some of the items exist, or when webhook events are asked for', async () => {
    // Prepare
    const document = validImport(smallDocument());
    const { orgId } = await createOrganization('Second Time Inc');
    const { orgId: eventsOrgId } = await createOrganization('Events Inc');
    await applyImport(orgId, { ...document, events: [] });

    // Act
    const again = await applyImport(orgId, document);
    const withEvents = await applyImport(eventsOrgId, document, undefined, { emitEvents: true });

    // Assess
    expect(again).toMatchObject({ path: 'transactional', eventsApplied: 4, assignmentsExisting: 4 });
    expect(withEvents.path).toBe('transactional');
  });
});
