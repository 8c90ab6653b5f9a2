import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  TransactionCanceledException,
  TransactionConflictException,
  type TransactWriteItem,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { CAMPAIGNS } from '#admin/demo/campaign-templates.ts';
import { Random } from '#admin/demo/random.ts';
import { groupBy } from '#admin/import-paths.ts';
import { tableDefinition } from '#definitions/table.ts';
import type { ProviderEvent } from '#schemas/import.ts';
import { type Percentiles, percentiles, round } from './load.ts';

/**
 * Hot items: how many counter-changing provider events one organization, and
 * one campaign, can take before a single DynamoDB item (or partition) runs out
 * of write throughput. It seeds one organization (campaigns from the demo's
 * templates, one contact and one assignment per lead, through the import) and
 * sends N provider events for it from W concurrent writers through
 * `recordProviderEvent`, the write path of the provider events consumer, with
 * live traffic's options (webhook events and provider work on); each writer
 * holds a writer slot, as each consumer container does. Each
 * assignment's events go to one writer, in lifecycle order (approved,
 * message_sent, opened, then replied, bounced or unsubscribed), so every event
 * is a valid transition that changes an organization counter, and none is a
 * duplicate.
 *
 * A middleware on the service's DynamoDB client counts every item write the
 * events make (each item of a TransactWriteItems, PutItem, UpdateItem,
 * DeleteItem, each request of a BatchWriteItem), per item key, only inside an
 * event's own async context, so the stack's relay and consumers, running in
 * the same process, count nowhere. It measures whatever items the write path
 * touches: a design that shards its counters shows its shards here. Write
 * units follow DynamoDB's documented rules (below) from the item sizes: a put
 * counts the item it sends, any other write the stored item, read back after
 * the run. The projection divides DynamoDB's documented per-partition limit
 * by the write units one event brings to the hottest item and partition key:
 * for one organization (all the run's events), for one campaign (its own
 * events alone) and for all organizations together (the items outside the
 * organization's partitions, such as id counters).
 *
 * Part of `npm run bench`; on its own: `npm run bench -- --only hot-items`.
 * BENCH_HOT_EVENTS and BENCH_HOT_WRITERS set N and W (20,000 and 32).
 */

/** DynamoDB's documented limits and unit rules the projection uses, with where each is stated. */
export const DYNAMODB_LIMITS = {
  /**
   * A partition serves at most 1,000 write units a second; adaptive capacity may isolate a hot item in
   * a partition of its own, which then gives it up to that maximum, and no more (an item is never split).
   */
  writeUnitsPerPartitionPerSecond: 1000,
  /** A standard write of an item up to 1 KB is one write unit; larger items take one per started KB. */
  bytesPerWriteUnit: 1024,
  /** A transaction writes each of its items twice (prepare, commit): two write units per KB. */
  transactionalWriteFactor: 2,
  sources: {
    partitionThroughput:
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html',
    hotItemIsolation:
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html#isolate-frequent-access-items',
    perPartitionLimit:
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html',
    writeUnits:
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html#write-operation-consumption',
    itemSize:
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html',
    transactions:
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling',
    transactionConflicts:
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling',
  },
} as const;

/** Issue 22's design budget: no item over 300 writes a second at these event rates. */
export const DESIGN_BUDGET = {
  writesPerItemPerSecond: 300,
  organizationEventsPerSecond: 5000,
  campaignEventsPerSecond: 2000,
} as const;

const DEFAULT_EVENTS = 20_000;
const DEFAULT_WRITERS = 32;
/** Campaigns of the organization; events are spread evenly over them. */
const DEFAULT_CAMPAIGNS = 8;
/** Events of one assignment's lifecycle (approved, message_sent, opened, and its outcome). */
const EVENTS_PER_ASSIGNMENT = 4;
/** The same plan every run: which outcome each lead has, in which order each writer sends. */
const PLAN_SEED = 20_260_522;
const TOP_ITEMS = 10;
const TOP_PARTITIONS = 5;
const TOP_OVERLAPPED_ITEMS = 5;
/** BatchGetItem's limit of keys a request. */
const BATCH_GET_KEYS = 100;

/** N and W from BENCH_HOT_EVENTS and BENCH_HOT_WRITERS, else the defaults. */
export function hotItemsCounts(environment: NodeJS.ProcessEnv = process.env): {
  events: number;
  writers: number;
} {
  const count = (name: string, fallback: number) => {
    const text = environment[name]?.trim();
    if (!text) return fallback;
    if (!/^[1-9]\d*$/.test(text)) throw new Error(`${name}: "${text}" is not a positive whole number`);
    return Number(text);
  };
  return {
    events: count('BENCH_HOT_EVENTS', DEFAULT_EVENTS),
    writers: count('BENCH_HOT_WRITERS', DEFAULT_WRITERS),
  };
}

/**
 * Which events an item's load is counted against: `service`, an item outside
 * the organization's partitions (an id counter), shared by every
 * organization; `organization`, written by events of several campaigns;
 * `campaign`, written only by events of one campaign.
 */
export type Scope = 'service' | 'organization' | 'campaign';

export interface HotItem {
  pk: string;
  sk: string;
  scope: Scope;
  /** Item writes DynamoDB applied (transactions that were cancelled not included). */
  writes: number;
  /** Of all the item writes the events made. */
  share: number;
  /** Per event of its scope: all events, or those of its campaign. */
  writesPerEvent: number;
  /** Applied writes ÷ the run's seconds, on DynamoDB Local. */
  writesPerSecondOnLocal: number;
  /** The item's size as DynamoDB counts it: the larger of what was put and what is stored after the run. */
  bytes: number;
  /** Write units one standard write of it takes (a transactional one takes twice as many). */
  unitsPerWrite: number;
  writeUnits: number;
  unitsPerEvent: number;
  /** Writes of it in cancelled transactions. */
  cancelledWrites: number;
  /** Cancellations and rejections of writes of it because of a concurrent transaction. */
  conflicts: number;
}

/** The items of one partition key together: until DynamoDB splits them apart, one partition serves them. */
export interface HotPartition {
  pk: string;
  scope: Scope;
  /** Its items the events wrote. */
  items: number;
  writes: number;
  writeUnits: number;
  /** Per event of the organization. */
  unitsPerEvent: number;
}

export interface ScopeProjection {
  scope: Scope;
  /** The events the rates are of: one organization's, one campaign's, or every organization's together. */
  eventsOf: string;
  /** The item taking the most write units per event of the scope; null when no item is of the scope. */
  hottestItem: { pk: string; sk: string; unitsPerEvent: number } | null;
  /** 1,000 write units a second ÷ its units per event: the most events a second with the item isolated. */
  maxEventsPerSecondByItem: number | null;
  /** The partition key taking the most write units per event of the scope. */
  hottestPartition: { pk: string; unitsPerEvent: number } | null;
  /** 1,000 write units a second ÷ its units per event: the most events a second before its items are split apart. */
  maxEventsPerSecondByPartition: number | null;
  /** The item written most often per event of the scope (the design budget counts writes). */
  busiestItem: { pk: string; sk: string; writesPerEvent: number } | null;
  /** 300 writes a second ÷ its writes per event. */
  maxEventsPerSecondWithinBudget: number | null;
  /** The issue's target rate for the scope, and the busiest item's writes a second at it. */
  targetEventsPerSecond: number | null;
  writesPerSecondAtTarget: number | null;
}

export interface HotItemsReport {
  settings: {
    events: number;
    writers: number;
    campaigns: number;
    assignments: number;
    /** Importing the organization's campaigns, contacts and assignments. */
    seedSeconds: number;
  };
  orgId: number;
  eventsByType: Record<string, number>;
  outcomes: { applied: number; duplicate: number; failed: Record<string, number> };
  /** From the first event sent to the last one answered. */
  seconds: number;
  /** On DynamoDB Local (one JVM on this machine): not a DynamoDB figure. */
  eventsPerSecondOnLocal: number;
  /** DynamoDB requests the events made, per event, by operation (reads included). */
  requestsPerEvent: Record<string, number>;
  writes: {
    /** Distinct items written. */
    items: number;
    itemWrites: number;
    itemWritesPerEvent: number;
    writeUnits: number;
    writeUnitsPerEvent: number;
    /** Item writes the stack's relay and consumers made meanwhile (not counted above). */
    outsideEvents: number;
    /**
     * The writers' claims and extensions of their slots (not counted above: they
     * follow time, a claim and then an extension every 15 s, not events), and
     * the claims refused because another writer was first.
     */
    writerSlots: { applied: number; refused: number };
  };
  contention: {
    cancelledTransactions: number;
    /** Items of cancelled transactions whose reason was TransactionConflict. */
    transactionConflicts: number;
    /** Standard writes rejected for an ongoing transaction on their item. */
    transactionConflictExceptions: number;
    conditionFailures: number;
    /** Transactions an event sent again after one of its transactions was cancelled (retryOnConflict). */
    domainRetries: number;
    /** Attempts the AWS SDK repeated (throttling, TransactionInProgressException, 5xx). */
    sdkRetries: number;
    /** Latency of the events' TransactWriteItems calls, ms. */
    transactWriteMs: Percentiles;
    /**
     * The conflict model: transactions whose time on the wire overlapped
     * another write of one of their items (overlappingTransactions). DynamoDB
     * cancels at least one of two transactions that meet on an item, so this
     * share is an upper bound of the share it would cancel.
     */
    overlaps: {
      transactions: number;
      overlapping: number;
      share: number;
      /** The items most overlapped on: how many transactions met another there. */
      items: { pk: string; sk: string; transactions: number }[];
    };
  };
  items: HotItem[];
  partitions: HotPartition[];
  projections: ScopeProjection[];
}

// ─── The plan: the import document and each writer's events ───

interface PlannedEvent {
  event: ProviderEvent;
  campaignId: number;
}

interface Plan {
  document: unknown;
  queues: PlannedEvent[][];
  assignments: number;
}

type IdBlocks = Record<'campaign' | 'sequence' | 'contact' | 'assignment', number[]>;

const OUTCOMES = [
  ['reply_received', 4],
  ['bounced', 3],
  ['unsubscribed', 3],
] as const;
const RESPONSE_TYPES = [
  ['positive', 1],
  ['neutral', 2],
  ['negative', 1],
] as const;

/** The organization to import and, per writer, the events it sends in order. */
function planEvents(
  counts: { events: number; writers: number; campaigns: number },
  ids: IdBlocks,
  runTag: string,
): Plan {
  const random = new Random(PLAN_SEED);
  const assignments = Math.ceil(counts.events / EVENTS_PER_ASSIGNMENT);
  let sequenceIndex = 0;
  const campaigns = ids.campaign.map((id, index) => {
    const template = CAMPAIGNS[index % CAMPAIGNS.length]!;
    return {
      id,
      name: `${template.name} (hot items ${index + 1})`,
      signals: template.signals.map((signal) => signal.name),
      sequences: template.sequences.map((sequence) => ({ id: ids.sequence[sequenceIndex++]!, ...sequence })),
    };
  });
  const contacts = ids.contact.map((id, index) => ({
    id,
    email: `lead${index}.${runTag}@hot${index % 50}.example`,
    first_name: `Lead${index}`,
    last_name: 'Hot',
    company_name: `Company ${index % 50}`,
  }));
  const started = Date.now() - 2 * 24 * 3_600_000;
  const lifecycles = ids.assignment.map((assignmentId, index) => {
    const campaign = campaigns[index % campaigns.length]!;
    const length = Math.min(EVENTS_PER_ASSIGNMENT, counts.events - index * EVENTS_PER_ASSIGNMENT);
    const at = (step: number) => new Date(started + step * 3_600_000 + index * 1000).toISOString();
    const base = (step: number) => ({
      id: `hot-${runTag}-${assignmentId}-${step}`,
      assignment_id: assignmentId,
      at: at(step),
    });
    const outcome = random.weighted(OUTCOMES);
    const events: ProviderEvent[] = [
      { ...base(0), type: 'approved' },
      {
        ...base(1),
        type: 'message_sent',
        message: {
          step_type: 'email',
          step_index: 0,
          subject: `Closing the books at Company ${index % 50}`,
          body: `Hi Lead${index}, teams like yours cut their month-end close to four days. Worth a look?`,
          open_count: 0,
        },
      },
      { ...base(2), type: 'opened' },
      outcome === 'reply_received'
        ? {
            ...base(3),
            type: 'reply_received',
            response_type: random.weighted(RESPONSE_TYPES),
            message: { step_type: 'reply', body: `Thanks, tell me more (lead ${index}).`, open_count: 0 },
          }
        : { ...base(3), type: outcome },
    ];
    return {
      campaignId: campaign.id,
      sequenceId: campaign.sequences[0]!.id,
      contactId: ids.contact[index]!,
      assignmentId,
      events: events.slice(0, length),
    };
  });

  // One writer owns each assignment, so its events go in order; each writer mixes its leads at random.
  // Owners are drawn at random, as a queue hands messages to its consumers: every writer gets leads of
  // every campaign (owning by id modulo would tie each writer to the campaigns that modulo picks).
  const owners = lifecycles.map(() => random.int(0, counts.writers - 1));
  const queues: PlannedEvent[][] = Array.from({ length: counts.writers }, (_, writer) => {
    const owned = lifecycles
      .filter((_, index) => owners[index] === writer)
      .map((each) => ({ ...each, next: 0 }));
    const queue: PlannedEvent[] = [];
    let open = owned.filter((each) => each.events.length > 0);
    while (open.length > 0) {
      const lifecycle = random.pick(open);
      queue.push({ event: lifecycle.events[lifecycle.next++]!, campaignId: lifecycle.campaignId });
      if (lifecycle.next === lifecycle.events.length) open = open.filter((each) => each !== lifecycle);
    }
    return queue;
  });
  const document = {
    campaigns,
    contacts,
    assignments: lifecycles.map((each) => ({
      id: each.assignmentId,
      campaign_id: each.campaignId,
      sequence_id: each.sequenceId,
      contact_id: each.contactId,
      status: 'pending-approval',
    })),
  };
  return { document, queues, assignments };
}

// ─── Counting: a middleware on the service's client, within each event's context ───

/** What the middleware knows of the event whose requests it sees. */
interface EventContext {
  campaignId: number;
  cancelledTransactions: number;
}

/** One write request of an event: when it was on the wire and which items it wrote. */
export interface WriteWindow {
  start: number;
  end: number;
  transactional: boolean;
  keys: string[];
}

/**
 * The transactions whose window overlapped another write's on an item they
 * share, and per item how many did. A client's window (request sent to answer
 * received) holds the server's, so every pair DynamoDB would see in conflict
 * overlaps here; some overlaps here would not conflict there.
 */
export function overlappingTransactions(windows: readonly WriteWindow[]): {
  overlapping: Set<WriteWindow>;
  byItem: Map<string, number>;
} {
  const overlapping = new Set<WriteWindow>();
  const byItem = new Map<string, number>();
  const byKey = groupBy(
    windows.flatMap((window) => window.keys.map((key) => ({ key, window }))),
    (entry) => entry.key,
  );
  for (const [key, entries] of byKey) {
    const met = new Set<WriteWindow>();
    let open: WriteWindow[] = [];
    for (const { window } of entries.sort((a, b) => a.window.start - b.window.start)) {
      open = open.filter((other) => other.end > window.start);
      if (open.length > 0) {
        met.add(window);
        for (const other of open) met.add(other);
      }
      open.push(window);
    }
    const transactions = [...met].filter((window) => window.transactional);
    for (const window of transactions) overlapping.add(window);
    if (transactions.length > 0) byItem.set(key, transactions.length);
  }
  return { overlapping, byItem };
}

interface ItemWrite {
  pk: string;
  sk: string;
  transactional: boolean;
  /** A put's item, as sent. */
  item?: Record<string, AttributeValue>;
}

interface ItemTally {
  pk: string;
  sk: string;
  writes: number;
  transactionalWrites: number;
  cancelledWrites: number;
  conflicts: number;
  /** The largest item put. */
  putBytes: number;
  /** Written by something other than a put, so its stored size counts. */
  storedSizeCounts: boolean;
  /** Applied writes by the campaign whose event made them (a cancelled write adds its campaign at 0). */
  byCampaign: Map<number, { writes: number; transactionalWrites: number }>;
}

function campaignTally(tally: ItemTally, campaignId: number) {
  let entry = tally.byCampaign.get(campaignId);
  if (!entry) {
    entry = { writes: 0, transactionalWrites: 0 };
    tally.byCampaign.set(campaignId, entry);
  }
  return entry;
}

/** A key attribute's text, from a marshalled value ({S: …}) or a document one. */
function keyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'S' in value) return String(value.S);
  return '';
}

function keyOf(source: Record<string, unknown> | undefined): { pk: string; sk: string } {
  return {
    pk: keyText(source?.[tableDefinition.partitionKey]),
    sk: keyText(source?.[tableDefinition.sortKey]),
  };
}

/** The item writes a request asks for, from its marshalled input. */
function writesOf(operation: string, input: Record<string, unknown>): ItemWrite[] {
  switch (operation) {
    case 'TransactWriteItems':
      return ((input.TransactItems ?? []) as TransactWriteItem[]).flatMap((each): ItemWrite[] => {
        if (each.Put) return [{ ...keyOf(each.Put.Item), transactional: true, item: each.Put.Item }];
        if (each.Update) return [{ ...keyOf(each.Update.Key), transactional: true }];
        if (each.Delete) return [{ ...keyOf(each.Delete.Key), transactional: true }];
        if (each.ConditionCheck) return [{ ...keyOf(each.ConditionCheck.Key), transactional: true }];
        return [];
      });
    case 'PutItem': {
      const item = input.Item as Record<string, AttributeValue>;
      return [{ ...keyOf(item), transactional: false, item }];
    }
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ ...keyOf(input.Key as Record<string, unknown>), transactional: false }];
    case 'BatchWriteItem':
      return Object.values((input.RequestItems ?? {}) as Record<string, WriteRequest[]>)
        .flat()
        .flatMap((request): ItemWrite[] => {
          if (request.PutRequest?.Item) {
            const item = request.PutRequest.Item;
            return [{ ...keyOf(item), transactional: false, item }];
          }
          if (request.DeleteRequest?.Key)
            return [{ ...keyOf(request.DeleteRequest.Key), transactional: false }];
          return [];
        });
    default:
      return [];
  }
}

/** Keys of a BatchWriteItem's requests DynamoDB left unprocessed (they were not written). */
function unprocessedKeys(output: { UnprocessedItems?: Record<string, unknown[]> }): Set<string> {
  const keys = new Set<string>();
  for (const request of Object.values(output.UnprocessedItems ?? {}).flat()) {
    const { PutRequest, DeleteRequest } = request as {
      PutRequest?: { Item?: Record<string, unknown> };
      DeleteRequest?: { Key?: Record<string, unknown> };
    };
    const key = keyOf(PutRequest?.Item ?? DeleteRequest?.Key);
    keys.add(tallyKey(key));
  }
  return keys;
}

const tallyKey = (key: { pk: string; sk: string }) => `${key.pk}\u0000${key.sk}`;

// ─── Item sizes (docs: CapacityUnitCalculations) ───

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** About 1 byte per two significant digits, plus 1. */
function numberBytes(text: string): number {
  const digits = text
    .replace(/^[-+]/, '')
    .replace(/e.*$/i, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return utf8Bytes(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, each) => sum + utf8Bytes(each), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, each) => sum + numberBytes(each), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, each) => sum + each.byteLength, 0);
  // A list or a map: 3 bytes, and 1 more for each element.
  if (value.L !== undefined) return 3 + value.L.reduce((sum, each) => sum + valueBytes(each) + 1, 0);
  if (value.M !== undefined)
    return (
      3 +
      Object.entries(value.M).reduce((sum, [name, each]) => sum + utf8Bytes(name) + valueBytes(each) + 1, 0)
    );
  return 0;
}

/** An item's size as DynamoDB counts it: every attribute's name and value. */
export function itemBytes(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8Bytes(name) + valueBytes(value), 0);
}

const unitsPerWrite = (bytes: number) => Math.max(1, Math.ceil(bytes / DYNAMODB_LIMITS.bytesPerWriteUnit));

// ─── The run ───

export interface HotItemsOptions {
  events?: number;
  writers?: number;
  campaigns?: number;
  log?: (message: string) => void;
}

export async function measureHotItems(options: HotItemsOptions = {}): Promise<HotItemsReport> {
  // The service's modules load only when a run starts: the bench sets its environment (log level,
  // metrics) and the local stack its configuration first, and report.ts imports this module early.
  const [
    { applyImport, validateImport },
    { createOrganization },
    { recordProviderEvent },
    { allocateIds },
    { dynamo },
    { tableName },
    { keys },
    { WriterSlotLease },
  ] = await Promise.all([
    import('#admin/import.ts'),
    import('#domain/organizations.ts'),
    import('#domain/provider-events.ts'),
    import('#store/ids.ts'),
    import('#platform/dynamodb-client.ts'),
    import('#platform/config.ts'),
    import('#store/keys.ts'),
    import('#domain/writer-slot-lease.ts'),
  ]);
  const defaults = hotItemsCounts();
  const counts = {
    events: options.events ?? defaults.events,
    writers: options.writers ?? defaults.writers,
    campaigns: options.campaigns ?? DEFAULT_CAMPAIGNS,
  };
  const log = options.log ?? (() => undefined);

  const seedStarted = performance.now();
  const { orgId } = await createOrganization('Bench Hot Items');
  const assignmentCount = Math.ceil(counts.events / EVENTS_PER_ASSIGNMENT);
  const sequenceCount = Array.from(
    { length: counts.campaigns },
    (_, index) => CAMPAIGNS[index % CAMPAIGNS.length]!.sequences.length,
  ).reduce((sum, each) => sum + each, 0);
  const ids: IdBlocks = {
    campaign: await allocateIds('campaign', counts.campaigns),
    sequence: await allocateIds('sequence', sequenceCount),
    contact: await allocateIds('contact', assignmentCount),
    assignment: await allocateIds('assignment', assignmentCount),
  };
  const plan = planEvents(counts, ids, `${orgId}`);
  const validated = validateImport(plan.document);
  if (!validated.ok)
    throw new Error(`The hot items import is invalid: ${JSON.stringify(validated.errors.slice(0, 3))}`);
  log(`hot items: importing ${counts.campaigns} campaigns and ${plan.assignments} assignments`);
  await applyImport(orgId, validated.document);
  const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);

  const eventContext = new AsyncLocalStorage<EventContext>();
  const tallies = new Map<string, ItemTally>();
  const tallyOf = (write: ItemWrite) => {
    const key = tallyKey(write);
    let tally = tallies.get(key);
    if (!tally) {
      tally = {
        pk: write.pk,
        sk: write.sk,
        writes: 0,
        transactionalWrites: 0,
        cancelledWrites: 0,
        conflicts: 0,
        putBytes: 0,
        storedSizeCounts: false,
        byCampaign: new Map(),
      };
      tallies.set(key, tally);
    }
    return tally;
  };
  const requests: Record<string, number> = {};
  const contention = {
    cancelledTransactions: 0,
    transactionConflicts: 0,
    transactionConflictExceptions: 0,
    conditionFailures: 0,
    domainRetries: 0,
    sdkRetries: 0,
  };
  const transactWriteMs: number[] = [];
  const writeWindows: WriteWindow[] = [];
  let writesOutsideEvents = 0;
  const writerSlotWrites = { applied: 0, refused: 0 };
  const writerSlotPartition = keys.writerSlot(0).pk;
  const attemptsOf = (value: unknown) =>
    (value as { $metadata?: { attempts?: number } } | undefined)?.$metadata?.attempts ?? 1;

  const middlewareName = `bench-hot-items-${orgId}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      const writes = writesOf(operation, (args as { input: Record<string, unknown> }).input);
      const event = eventContext.getStore();
      if (!event) {
        // The stack's relay and consumers share this client: their writes are not the events'.
        const result = await next(args);
        writesOutsideEvents += writes.length;
        return result;
      }
      requests[operation] = (requests[operation] ?? 0) + 1;
      if (writes.length > 0 && writes.every((write) => write.pk === writerSlotPartition)) {
        try {
          const result = await next(args);
          writerSlotWrites.applied += writes.length;
          return result;
        } catch (error) {
          if (error instanceof ConditionalCheckFailedException) writerSlotWrites.refused += 1;
          throw error;
        }
      }
      // retryOnConflict runs the whole operation again: a second transaction after a cancelled one is a retry.
      if (operation === 'TransactWriteItems' && event.cancelledTransactions > 0)
        contention.domainRetries += 1;
      const started = performance.now();
      try {
        const result = await next(args);
        contention.sdkRetries += attemptsOf(result.output) - 1;
        const unprocessed =
          operation === 'BatchWriteItem'
            ? unprocessedKeys(result.output as { UnprocessedItems?: Record<string, unknown[]> })
            : new Set<string>();
        for (const write of writes) {
          if (unprocessed.has(tallyKey(write))) continue;
          const tally = tallyOf(write);
          const ofCampaign = campaignTally(tally, event.campaignId);
          tally.writes += 1;
          ofCampaign.writes += 1;
          if (write.transactional) {
            tally.transactionalWrites += 1;
            ofCampaign.transactionalWrites += 1;
          }
          if (write.item) tally.putBytes = Math.max(tally.putBytes, itemBytes(write.item));
          else tally.storedSizeCounts = true;
        }
        return result;
      } catch (error) {
        contention.sdkRetries += attemptsOf(error) - 1;
        if (error instanceof TransactionCanceledException) {
          contention.cancelledTransactions += 1;
          event.cancelledTransactions += 1;
          const reasons = error.CancellationReasons ?? [];
          writes.forEach((write, index) => {
            const tally = tallyOf(write);
            tally.cancelledWrites += 1;
            campaignTally(tally, event.campaignId);
            const code = reasons[index]?.Code;
            if (code === 'TransactionConflict') {
              tally.conflicts += 1;
              contention.transactionConflicts += 1;
            }
            if (code === 'ConditionalCheckFailed') contention.conditionFailures += 1;
          });
        } else if (error instanceof TransactionConflictException) {
          contention.transactionConflictExceptions += 1;
          for (const write of writes) tallyOf(write).conflicts += 1;
        } else if (error instanceof ConditionalCheckFailedException) {
          contention.conditionFailures += 1;
        }
        throw error;
      } finally {
        const ended = performance.now();
        if (operation === 'TransactWriteItems') transactWriteMs.push(ended - started);
        if (writes.length > 0) {
          writeWindows.push({
            start: started,
            end: ended,
            transactional: operation === 'TransactWriteItems',
            keys: writes.map(tallyKey),
          });
        }
      }
    },
    { step: 'build', name: middlewareName, priority: 'low' },
  );

  const eventsByType: Record<string, number> = {};
  const eventsByCampaign = new Map<number, number>();
  for (const { event, campaignId } of plan.queues.flat()) {
    eventsByType[event.type] = (eventsByType[event.type] ?? 0) + 1;
    eventsByCampaign.set(campaignId, (eventsByCampaign.get(campaignId) ?? 0) + 1);
  }
  const outcomes = { applied: 0, duplicate: 0, failed: {} as Record<string, number> };
  log(`hot items: ${counts.events} events from ${counts.writers} writers`);
  const started = performance.now();
  try {
    await Promise.all(
      plan.queues.map(async (queue) => {
        // Each writer is a consumer container of its own: it holds a writer slot as the consumer does.
        const writer = new WriterSlotLease();
        for (const planned of queue) {
          const context: EventContext = { campaignId: planned.campaignId, cancelledTransactions: 0 };
          await eventContext.run(context, async () => {
            try {
              const { outcome } = await recordProviderEvent(orgId, planned.event, {
                writerSlot: await writer.slot(),
              });
              outcomes[outcome] += 1;
            } catch (error) {
              // One event that fails (a conflict retried to the end) must not end the run: it is reported.
              const name = (error as Error).name || 'Error';
              outcomes.failed[name] = (outcomes.failed[name] ?? 0) + 1;
            }
          });
        }
      }),
    );
  } finally {
    dynamo.middlewareStack.remove(middlewareName);
  }
  const seconds = (performance.now() - started) / 1000;

  // Sizes of the items that were updated, deleted or checked: DynamoDB counts the stored item for those.
  const storedBytes = new Map<string, number>();
  const measured = [...tallies.values()].filter((tally) => tally.storedSizeCounts);
  for (let start = 0; start < measured.length; start += BATCH_GET_KEYS) {
    let pending: Record<string, unknown>[] = measured
      .slice(start, start + BATCH_GET_KEYS)
      .map((tally) => ({ [tableDefinition.partitionKey]: tally.pk, [tableDefinition.sortKey]: tally.sk }));
    while (pending.length > 0) {
      const result = await dynamo.send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }),
      );
      for (const item of result.Responses?.[tableName()] ?? [])
        storedBytes.set(tallyKey(keyOf(item)), itemBytes(marshall(item, { removeUndefinedValues: true })));
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }

  const organizationPartition = keys.organization(orgId).pk;
  const outsideOrganization = (pk: string) =>
    pk !== organizationPartition && !pk.startsWith(`${organizationPartition}#`);
  const scopeOf = (pk: string, campaigns: number): Scope =>
    outsideOrganization(pk) ? 'service' : campaigns > 1 ? 'organization' : 'campaign';
  const eventsOf = (campaignId: number) => eventsByCampaign.get(campaignId)!;

  const totalWrites = [...tallies.values()].reduce((sum, tally) => sum + tally.writes, 0);
  const measuredItems = [...tallies.values()].map((tally) => {
    const bytes = Math.max(tally.putBytes, storedBytes.get(tallyKey(tally)) ?? 0);
    const perWrite = unitsPerWrite(bytes);
    // A standard write takes its units once, a transactional one twice.
    const unitsOf = (writes: { writes: number; transactionalWrites: number }) =>
      perWrite *
      (writes.writes + writes.transactionalWrites * (DYNAMODB_LIMITS.transactionalWriteFactor - 1));
    const writeUnits = unitsOf(tally);
    const scope = scopeOf(tally.pk, tally.byCampaign.size);
    // An item of one campaign takes its load from that campaign's events; any other from all of them.
    const events = scope === 'campaign' ? eventsOf([...tally.byCampaign.keys()][0]!) : counts.events;
    const item: HotItem = {
      pk: tally.pk,
      sk: tally.sk,
      scope,
      writes: tally.writes,
      share: totalWrites === 0 ? 0 : tally.writes / totalWrites,
      writesPerEvent: tally.writes / events,
      writesPerSecondOnLocal: tally.writes / seconds,
      bytes,
      unitsPerWrite: perWrite,
      writeUnits,
      unitsPerEvent: writeUnits / events,
      cancelledWrites: tally.cancelledWrites,
      conflicts: tally.conflicts,
    };
    const campaignLoads = [...tally.byCampaign].map(
      ([campaignId, writes]): Load => ({
        pk: tally.pk,
        sk: tally.sk,
        group: `${tally.pk}\u0000${campaignId}`,
        writesPerEvent: writes.writes / eventsOf(campaignId),
        unitsPerEvent: unitsOf(writes) / eventsOf(campaignId),
      }),
    );
    return { item, campaignLoads, campaigns: [...tally.byCampaign.keys()] };
  });
  const items = measuredItems.map((measured) => measured.item);

  // What one event brings to each item: of the organization (all its events), of one campaign (its events).
  const organizationLoads = items.map(
    (item): Load => ({
      pk: item.pk,
      sk: item.sk,
      group: item.pk,
      writesPerEvent: item.writes / counts.events,
      unitsPerEvent: item.writeUnits / counts.events,
    }),
  );
  const campaignLoads = measuredItems.flatMap((measured) => measured.campaignLoads);
  const serviceLoads = organizationLoads.filter((load) => outsideOrganization(load.pk));

  const partitions = [...groupBy(measuredItems, (measured) => measured.item.pk)].map(
    ([pk, ofKey]): HotPartition => {
      const writeUnits = ofKey.reduce((sum, { item }) => sum + item.writeUnits, 0);
      const campaigns = new Set(ofKey.flatMap((measured) => measured.campaigns));
      return {
        pk,
        scope: scopeOf(pk, campaigns.size),
        items: ofKey.length,
        writes: ofKey.reduce((sum, { item }) => sum + item.writes, 0),
        writeUnits,
        unitsPerEvent: writeUnits / counts.events,
      };
    },
  );

  const totalUnits = items.reduce((sum, item) => sum + item.writeUnits, 0);
  const requestsPerEvent = Object.fromEntries(
    Object.entries(requests).map(([operation, count]) => [operation, round(count / counts.events, 3)]),
  );
  const byWrites = (a: HotItem, b: HotItem) => b.writes - a.writes || b.writeUnits - a.writeUnits;
  const transactions = writeWindows.filter((window) => window.transactional).length;
  const { overlapping, byItem } = overlappingTransactions(writeWindows);
  const overlaps = {
    transactions,
    overlapping: overlapping.size,
    share: transactions === 0 ? 0 : overlapping.size / transactions,
    items: [...byItem]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_OVERLAPPED_ITEMS)
      .map(([key, count]) => {
        const [pk = '', sk = ''] = key.split('\u0000');
        return { pk, sk, transactions: count };
      }),
  };
  return {
    settings: { ...counts, assignments: plan.assignments, seedSeconds },
    orgId,
    eventsByType,
    outcomes,
    seconds: round(seconds, 1),
    eventsPerSecondOnLocal: round(counts.events / seconds, 1),
    requestsPerEvent,
    writes: {
      items: tallies.size,
      itemWrites: totalWrites,
      itemWritesPerEvent: round(totalWrites / counts.events, 2),
      writeUnits: totalUnits,
      writeUnitsPerEvent: round(totalUnits / counts.events, 2),
      outsideEvents: writesOutsideEvents,
      writerSlots: writerSlotWrites,
    },
    contention: { ...contention, transactWriteMs: percentiles(transactWriteMs), overlaps },
    items: [...items].sort(byWrites).slice(0, TOP_ITEMS),
    partitions: [...partitions].sort((a, b) => b.writeUnits - a.writeUnits).slice(0, TOP_PARTITIONS),
    projections: [
      project('organization', organizationLoads),
      project('campaign', campaignLoads),
      project('service', serviceLoads),
    ],
  };
}

// ─── The projection against DynamoDB's limits and the design budget ───

/**
 * What one event of a scope brings to an item, on average. `group` names what
 * shares a partition: the partition key (for one campaign's events, the
 * partition key and the campaign, since each campaign is projected alone).
 */
interface Load {
  pk: string;
  sk: string;
  group: string;
  writesPerEvent: number;
  unitsPerEvent: number;
}

const EVENTS_OF: Record<Scope, string> = {
  organization: 'one organization',
  campaign: 'one campaign',
  service: 'all organizations together',
};
const TARGET: Record<Scope, number | null> = {
  organization: DESIGN_BUDGET.organizationEventsPerSecond,
  campaign: DESIGN_BUDGET.campaignEventsPerSecond,
  service: null,
};

function maxBy<T>(values: T[], measure: (value: T) => number): T | null {
  return values.reduce<T | null>(
    (best, each) => (best === null || measure(each) > measure(best) ? each : best),
    null,
  );
}

/**
 * The ceilings of a scope from the loads its events bring: the limit over the
 * hottest item's write units per event, over the hottest partition's (its
 * items' together), and the budget over the most written item's writes per event.
 */
function project(scope: Scope, loads: Load[]): ScopeProjection {
  const limit = DYNAMODB_LIMITS.writeUnitsPerPartitionPerSecond;
  const hottestItem = maxBy(loads, (load) => load.unitsPerEvent);
  const partitionLoads = [...groupBy(loads, (load) => load.group).values()].map((ofGroup) => ({
    pk: ofGroup[0]!.pk,
    unitsPerEvent: ofGroup.reduce((sum, load) => sum + load.unitsPerEvent, 0),
  }));
  const hottestPartition = maxBy(partitionLoads, (load) => load.unitsPerEvent);
  const busiestItem = maxBy(loads, (load) => load.writesPerEvent);
  const target = busiestItem ? TARGET[scope] : null;
  return {
    scope,
    eventsOf: EVENTS_OF[scope],
    hottestItem: hottestItem && {
      pk: hottestItem.pk,
      sk: hottestItem.sk,
      unitsPerEvent: hottestItem.unitsPerEvent,
    },
    maxEventsPerSecondByItem: hottestItem && round(limit / hottestItem.unitsPerEvent, 0),
    hottestPartition,
    maxEventsPerSecondByPartition: hottestPartition && round(limit / hottestPartition.unitsPerEvent, 0),
    busiestItem: busiestItem && {
      pk: busiestItem.pk,
      sk: busiestItem.sk,
      writesPerEvent: busiestItem.writesPerEvent,
    },
    maxEventsPerSecondWithinBudget:
      busiestItem && round(DESIGN_BUDGET.writesPerItemPerSecond / busiestItem.writesPerEvent, 0),
    targetEventsPerSecond: target,
    writesPerSecondAtTarget:
      busiestItem && target !== null ? round(target * busiestItem.writesPerEvent, 0) : null,
  };
}

// ─── The report's section ───

const number = (value: number | null, digits = 0) =>
  value === null ? '—' : value.toLocaleString('en-US', { maximumFractionDigits: digits });
/** A per-event figure: three significant digits, so a small load does not round to 0. */
const perEvent = (value: number) => value.toLocaleString('en-US', { maximumSignificantDigits: 3 });
const itemName = (item: { pk: string; sk?: string }) =>
  item.sk === undefined ? `\`${item.pk}\`` : `\`${item.pk}\` / \`${item.sk}\``;
const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([name, count]) => `${number(count, 3)} ${name}`)
    .join(', ') || 'none';

/** The report's section (within the full report, and alone for `npm run bench -- --only hot-items`). */
export function renderHotItems(report: HotItemsReport): string {
  const { settings, writes, contention, outcomes } = report;
  const { overlaps } = contention;
  const failed = Object.values(outcomes.failed).reduce((sum, count) => sum + count, 0);
  const [organization, campaign, service] = (['organization', 'campaign', 'service'] as const).map(
    (scope) => report.projections.find((projection) => projection.scope === scope)!,
  );
  // Service-wide items cap every organization's events together, so one organization's too.
  const serviceCap = service?.maxEventsPerSecondByItem ?? null;
  const withService = (value: number | null) =>
    value === null || serviceCap === null ? value : Math.min(value, serviceCap);
  const conflictsSeen = contention.transactionConflicts + contention.transactionConflictExceptions;
  const limits = DYNAMODB_LIMITS.sources;
  const lines = [
    '## Hot items: counter writes of one organization',
    '',
    `${number(settings.events)} provider events for one organization (${settings.campaigns} campaigns, ${number(settings.assignments)} assignments imported in ${settings.seedSeconds} s: ${counted(report.eventsByType)}), each a valid transition that changes an organization counter, sent by **${settings.writers} concurrent writers** through \`recordProviderEvent\` (the provider events consumer's write path, with webhook events and provider work on, as live traffic has them), each writer holding a writer slot of its own as each consumer container does. Each assignment's events go to one writer in lifecycle order, so only the items events share are written concurrently. A middleware on the service's DynamoDB client counted every item write inside each event's own async context (the stack's relay and consumers, in the same process, wrote ${number(writes.outsideEvents)} items meanwhile, not counted). The writers claimed and extended their slots with ${number(writes.writerSlots.applied)} writes (${number(writes.writerSlots.refused)} claims refused: another writer was first), left out of the per-event figures: they follow time (a claim, then an extension every 15 s per writer), not events.`,
    '',
    '| events applied (duplicate, failed) | seconds | events/s on DynamoDB Local¹ | items written | item writes (per event) | write units² (per event) | DynamoDB requests per event |',
    '|---:|---:|---:|---:|---:|---:|---|',
    `| ${number(outcomes.applied)} (${number(outcomes.duplicate)}, ${failed === 0 ? '0' : `**${failed}**: ${counted(outcomes.failed)}`}) | ${report.seconds} | ${report.eventsPerSecondOnLocal} | ${number(writes.items)} | ${number(writes.itemWrites)} (${writes.itemWritesPerEvent}) | ${number(writes.writeUnits)} (${writes.writeUnitsPerEvent}) | ${counted(report.requestsPerEvent)} |`,
    '',
    "¹ One DynamoDB Local JVM on this shared machine: not a DynamoDB figure. ² From each item's size as DynamoDB counts it (a put: the item sent; an update, delete or condition check: the item stored after the run), 1 unit per started KB, twice in a transaction.",
    '',
    '| cancelled transactions | TransactionConflict (items) | TransactionConflictException | condition failures | domain retries (retryOnConflict) | SDK retries | TransactWriteItems p50 / p95 / p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${contention.cancelledTransactions} | ${contention.transactionConflicts} | ${contention.transactionConflictExceptions} | ${contention.conditionFailures} | ${contention.domainRetries} | ${contention.sdkRetries} | ${contention.transactWriteMs.p50} / ${contention.transactWriteMs.p95} / ${contention.transactWriteMs.p99} |`,
    '',
    conflictsSeen === 0
      ? "DynamoDB Local did not reproduce the contention: it serialises transactions on an item (a transaction waits for the item's lock) where DynamoDB cancels the later one with `TransactionConflict`, so the conflicts, and the retries they cause, read 0 here; the waiting shows as TransactWriteItems latency instead. On DynamoDB each transaction that meets another on a shared item is cancelled and tried again by `retryOnConflict` (8 tries, random waits from 10 ms doubling), and each try writes the shared items again."
      : `DynamoDB Local reported ${conflictsSeen} conflicts on items written concurrently; on DynamoDB each cancelled transaction is tried again by \`retryOnConflict\` (8 tries, random waits from 10 ms doubling), and each try writes the shared items again.`,
    '',
    `**Conflict model.** DynamoDB Local serialises what DynamoDB would cancel, so the bench also looks at time: of the events' ${number(overlaps.transactions)} transactions, **${number(overlaps.overlapping)} (${number(overlaps.share * 100, 2)} %)** were on the wire while another write of one of their items was. On DynamoDB at least one of two transactions that meet on an item is cancelled (\`TransactionConflict\`) and tried again, so at most this share would be; a request's time on the wire holds DynamoDB's time on it, so the model can only overstate.`,
    '',
    ...(overlaps.items.length === 0
      ? ['No item was written by two requests at once.']
      : [
          '| item (pk / sk) | transactions that met another write there |',
          '|---|---:|',
          ...overlaps.items.map((item) => `| ${itemName(item)} | ${number(item.transactions)} |`),
        ]),
    '',
    `### The ${report.items.length} most written items`,
    '',
    '| item (pk / sk) | scope³ | writes | share of writes | writes per event of its scope | writes/s on Local | size (bytes) | units per write (×2 in a transaction) | write units per event of its scope | conflicts |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.items.map(
      (item) =>
        `| ${itemName(item)} | ${item.scope} | ${number(item.writes)} | ${number(item.share * 100, 1)} % | ${perEvent(item.writesPerEvent)} | ${number(item.writesPerSecondOnLocal, 1)} | ${number(item.bytes)} | ${item.unitsPerWrite} | ${perEvent(item.unitsPerEvent)} | ${item.conflicts} |`,
    ),
    '',
    "³ `organization`: written by events of several campaigns (its rate is the organization's); `campaign`: by events of one campaign only (its rate is that campaign's); `service`: outside the organization's partitions, shared by every organization.",
    '',
    '| partition key | scope | items written | writes | write units per event of the organization |',
    '|---|---|---:|---:|---:|',
    ...report.partitions.map(
      (partition) =>
        `| ${itemName(partition)} | ${partition.scope} | ${number(partition.items)} | ${number(partition.writes)} | ${perEvent(partition.unitsPerEvent)} |`,
    ),
    '',
    "### Projection against DynamoDB's limits",
    '',
    `The most events a second a scope sustains = ${number(DYNAMODB_LIMITS.writeUnitsPerPartitionPerSecond)} write units a second ÷ the write units that one of its events brings, on average, to the hottest item (which adaptive capacity can isolate in a partition of its own, but never split) or to the hottest partition key (whose items share a partition until DynamoDB splits them apart). One organization's events are all of the run's; one campaign's are its own events alone, on every item they write (the organization's included), taking the campaign that loads an item most; items outside the organization's partitions are loaded by every organization's events together. Cancelled transactions are left out: they only lower these figures. The design budget is ${DESIGN_BUDGET.writesPerItemPerSecond} writes a second per item at ${number(DESIGN_BUDGET.organizationEventsPerSecond)} events/s per organization and ${number(DESIGN_BUDGET.campaignEventsPerSecond)}/s per campaign.`,
    '',
    '| events of | hottest item (units per event) | max events/s, item isolated | hottest partition key (units per event) | max events/s, partition | most written item (writes per event) | max events/s within 300 writes/s | its writes/s at the target |',
    '|---|---|---:|---|---:|---|---:|---:|',
    ...report.projections.map(
      (projection) =>
        `| ${projection.eventsOf} | ${projection.hottestItem ? `${itemName(projection.hottestItem)} (${perEvent(projection.hottestItem.unitsPerEvent)})` : '—'} | **${number(projection.maxEventsPerSecondByItem)}** | ${projection.hottestPartition ? `${itemName(projection.hottestPartition)} (${perEvent(projection.hottestPartition.unitsPerEvent)})` : '—'} | **${number(projection.maxEventsPerSecondByPartition)}** | ${projection.busiestItem ? `${itemName(projection.busiestItem)} (${perEvent(projection.busiestItem.writesPerEvent)})` : '—'} | **${number(projection.maxEventsPerSecondWithinBudget)}** | ${projection.targetEventsPerSecond === null ? '—' : `${number(projection.writesPerSecondAtTarget)} at ${number(projection.targetEventsPerSecond)} events/s (${(projection.writesPerSecondAtTarget ?? 0) <= DESIGN_BUDGET.writesPerItemPerSecond ? 'within' : '**over**'} the budget)`} |`,
    ),
    '',
    `So one organization sustains at most **${number(withService(organization?.maxEventsPerSecondByItem ?? null))} counter-changing events/s** with its hottest item isolated (${number(withService(organization?.maxEventsPerSecondByPartition ?? null))} while its partition is whole), and one campaign at most **${number(withService(campaign?.maxEventsPerSecondByItem ?? null))}/s** (${number(withService(campaign?.maxEventsPerSecondByPartition ?? null))} while its partition is whole); service-wide items, shared by every organization, cap all of them together at ${number(serviceCap)}/s. ${overlaps.share < 0.01 ? `Contention does not lower them: by the conflict model above, ${number(overlaps.share * 100, 2)} % of transactions could meet another on an item.` : `These are ceilings before contention: by the conflict model above, up to ${number(overlaps.share * 100, 1)} % of transactions meet another on an item and are tried again, well below those rates.`}`,
    '',
    `Limits used: a partition serves at most 1,000 write units a second (<${limits.perPartitionLimit}>; as long as the traffic on a partition key stays under it, <${limits.partitionThroughput}>), and a single hot item isolated by adaptive capacity gets up to that maximum (<${limits.hotItemIsolation}>); one write unit per started KB, an update counting the larger of the item before and after (<${limits.writeUnits}>), item sizes by <${limits.itemSize}>; a transaction writes each item twice, prepare and commit (<${limits.transactions}>); concurrent transactions on an item cancel each other with TransactionConflict (<${limits.transactionConflicts}>).`,
    '',
  ];
  return lines.join('\n');
}
