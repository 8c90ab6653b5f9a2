import { BatchGetCommand, BatchWriteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type BulkImportUnderWay, bulkImportItem } from './item-schemas/bulk-writes.ts';
import { type TableContext, type TableSource, tableContext } from './table-context.ts';
import {
  MAX_TRANSACTION_ITEMS,
  type TransactItem,
  TransactionConflictError,
  transact,
} from './transactions.ts';

export type { BulkImportUnderWay };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Bulk loading: the items a run of transactions would leave, computed in
 * memory from the very writes the transactional path sends (an `ItemImage`),
 * then written with BatchWriteItem, several requests in flight. It suits a
 * first load only: BatchWriteItem checks no condition, so the caller makes
 * sure none of the items exists yet (`findExistingKeys`), and the image
 * refuses writes that would depend on an item it does not hold. Counters of
 * items others share are added at the end, with the import's marker
 * (`bulkImportStore`), so an interrupted import is finished, never counted twice.
 */

type Item = Record<string, unknown>;

export interface ItemKey {
  pk: string;
  sk: string;
}

/**
 * A value as DynamoDB stores it and a read returns it, given how the service's
 * document client marshals (shared/platform/dynamodb-client.ts: undefined
 * members removed): Maps become objects, lists, sets and maps are copied, so
 * nothing is shared with the objects of the write that put it.
 */
function stored(value: unknown): unknown {
  if (value instanceof Set) return new Set([...value].filter((member) => member !== undefined));
  if (Array.isArray(value)) return value.filter((member) => member !== undefined).map(stored);
  if (value instanceof Map || (typeof value === 'object' && value !== null)) {
    const entries = value instanceof Map ? [...value] : Object.entries(value);
    const copy: Item = {};
    for (const [name, member] of entries) if (member !== undefined) copy[String(name)] = stored(member);
    return copy;
  }
  return value;
}

const keyString = (key: ItemKey): string => `${key.pk}\u0000${key.sk}`;

const keyOf = (item: Record<string, unknown>): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) });

/** An expression the image cannot apply: a write the bulk path has no business sending. */
export class UnsupportedBulkWrite extends Error {}

/** Splits on commas outside parentheses: `a = :a, b = if_not_exists(b, :b)`. */
function actionsOf(clause: string): string[] {
  const actions: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < clause.length; index++) {
    const character = clause[index];
    if (character === '(') depth += 1;
    else if (character === ')') depth -= 1;
    else if (character === ',' && depth === 0) {
      actions.push(clause.slice(start, index).trim());
      start = index + 1;
    }
  }
  actions.push(clause.slice(start).trim());
  return actions.filter((action) => action.length > 0);
}

/** `SET …`, `ADD …`, `REMOVE …` clauses of an update expression, in their order. */
function clausesOf(expression: string): { keyword: string; body: string }[] {
  const marks = [...expression.matchAll(/\b(SET|ADD|REMOVE|DELETE)\b/g)];
  return marks.map((mark, index) => ({
    keyword: mark[1]!,
    body: expression.slice(mark.index + mark[0].length, marks[index + 1]?.index ?? expression.length),
  }));
}

/**
 * The items a sequence of transaction writes leaves behind, held in memory.
 * Puts replace an item; updates are applied as DynamoDB applies them (SET,
 * `if_not_exists`, ADD of numbers and sets, REMOVE, on top-level and nested
 * map paths); conditions are not evaluated: the caller applies writes whose
 * conditions hold on a first load (a validated document, no item there yet).
 * An item the image never saw may only receive ADDs of numbers (an
 * organization's counters, which others may hold too): those are kept as
 * increments, to be added to the stored item, never put over it. Counter
 * shards (`keys.counterHome`) are folded into the item they shard.
 */
export class ItemImage {
  private readonly items = new Map<string, Item>();
  private readonly increments = new Map<string, { key: ItemKey; totals: Record<string, number> }>();

  /** The item as a read would return it; undefined when the image does not hold it. */
  get(key: ItemKey): Item | undefined {
    return this.items.get(keyString(key));
  }

  has(key: ItemKey): boolean {
    return this.items.has(keyString(key));
  }

  apply(writes: readonly TransactItem[]): void {
    for (const write of writes) this.applyOne(write);
  }

  /** The items to put whole, and the increments to add to items the image did not create. */
  contents(): { items: Item[]; increments: { key: ItemKey; totals: Record<string, number> }[] } {
    return { items: [...this.items.values()], increments: [...this.increments.values()] };
  }

  private applyOne(write: TransactItem): void {
    if (write.Put) {
      const item = stored(write.Put.Item) as Item;
      const key = keyString(keyOf(item));
      if (this.increments.has(key)) throw new UnsupportedBulkWrite(`Put over counters of ${key}`);
      this.items.set(key, item);
    } else if (write.Update) {
      const {
        Key,
        UpdateExpression,
        ExpressionAttributeNames = {},
        ExpressionAttributeValues = {},
      } = write.Update;
      // A counter shard's ADDs go to the item it shards (the campaign the image holds, the analytics
      // item): reads add them up the same, and the import's end adds one item, not every shard.
      const key = keys.counterHome(keyOf(Key as Item)) ?? keyOf(Key as Item);
      const item = this.items.get(keyString(key));
      const clauses = clausesOf(UpdateExpression ?? '');
      if (item) {
        for (const clause of clauses)
          applyClause(item, clause, ExpressionAttributeNames, ExpressionAttributeValues);
      } else this.addIncrements(key, clauses, ExpressionAttributeNames, ExpressionAttributeValues);
    } else if (write.ConditionCheck) {
      // A check that an item exists (a campaign a qualification counts in): it must be one of the image's.
      if (!this.has(keyOf(write.ConditionCheck.Key as Item)))
        throw new UnsupportedBulkWrite(
          `A condition on ${keyString(keyOf(write.ConditionCheck.Key as Item))}, which the image does not hold`,
        );
    } else {
      throw new UnsupportedBulkWrite('A delete has no place in a first load');
    }
  }

  private addIncrements(
    key: ItemKey,
    clauses: { keyword: string; body: string }[],
    names: Record<string, string>,
    values: Record<string, unknown>,
  ): void {
    const entry = this.increments.get(keyString(key)) ?? { key, totals: {} };
    for (const clause of clauses) {
      if (clause.keyword !== 'ADD')
        throw new UnsupportedBulkWrite(
          `${clause.keyword} on ${keyString(key)}, which the image does not hold`,
        );
      for (const action of actionsOf(clause.body)) {
        const [pathText, valueName] = action.split(/\s+/);
        const path = resolvePath(pathText!, names);
        const value = values[valueName!];
        if (path.length !== 1 || typeof value !== 'number')
          throw new UnsupportedBulkWrite(`ADD ${action} on ${keyString(key)}: only counters`);
        entry.totals[path[0]!] = (entry.totals[path[0]!] ?? 0) + value;
      }
    }
    this.increments.set(keyString(key), entry);
  }
}

/** A document path (`a.#b.c`) as attribute names. */
function resolvePath(text: string, names: Record<string, string>): string[] {
  return text
    .trim()
    .split('.')
    .map((segment) => {
      if (!/^#?\w+$/.test(segment)) throw new UnsupportedBulkWrite(`Path ${text}`);
      if (!segment.startsWith('#')) return segment;
      const name = names[segment];
      if (name === undefined) throw new UnsupportedBulkWrite(`Unnamed ${segment} in ${text}`);
      return name;
    });
}

/** The map holding the path's last attribute; DynamoDB refuses a path through a missing map, so does this. */
function parentOf(item: Item, path: string[]): Item {
  let parent: Item = item;
  for (const segment of path.slice(0, -1)) {
    const next = parent[segment];
    if (typeof next !== 'object' || next === null || Array.isArray(next) || next instanceof Set)
      throw new UnsupportedBulkWrite(`The document path ${path.join('.')} is invalid for the item`);
    parent = next as Item;
  }
  return parent;
}

function valueAt(path: string[], item: Item): unknown {
  let value: unknown = item;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Item)[segment];
  }
  return value;
}

function applyClause(
  item: Item,
  clause: { keyword: string; body: string },
  names: Record<string, string>,
  values: Record<string, unknown>,
): void {
  const valueNamed = (name: string) => {
    if (!(name in values)) throw new UnsupportedBulkWrite(`No value ${name}`);
    return stored(values[name]);
  };
  for (const action of actionsOf(clause.body)) {
    if (clause.keyword === 'SET') {
      const [pathText, operand] = action.split(/=(.*)/s).map((part) => part.trim());
      const path = resolvePath(pathText!, names);
      const ifNotExists = /^if_not_exists\(\s*([^,]+),\s*(:\w+)\s*\)$/.exec(operand!);
      let value: unknown;
      if (ifNotExists)
        value = valueAt(resolvePath(ifNotExists[1]!, names), item) ?? valueNamed(ifNotExists[2]!);
      else if (/^:\w+$/.test(operand!)) value = valueNamed(operand!);
      else throw new UnsupportedBulkWrite(`SET ${action}`);
      parentOf(item, path)[path.at(-1)!] = value;
    } else if (clause.keyword === 'ADD') {
      const [pathText, valueName] = action.split(/\s+/);
      const path = resolvePath(pathText!, names);
      const parent = parentOf(item, path);
      const name = path.at(-1)!;
      const value = valueNamed(valueName!);
      const current = parent[name];
      if (typeof value === 'number') parent[name] = (typeof current === 'number' ? current : 0) + value;
      else if (value instanceof Set)
        parent[name] = new Set([...(current instanceof Set ? current : []), ...value]);
      else throw new UnsupportedBulkWrite(`ADD ${action}`);
    } else if (clause.keyword === 'REMOVE') {
      const path = resolvePath(action, names);
      delete parentOf(item, path)[path.at(-1)!];
    } else {
      throw new UnsupportedBulkWrite(`${clause.keyword} ${action}`);
    }
  }
}

/** DynamoDB's limits per BatchWriteItem and BatchGetItem request. */
const WRITE_BATCH = 25;

const GET_BATCH = 100;

/**
 * Requests in flight. DynamoDB Local on two cores is saturated by about this
 * many; DynamoDB spreads them over partitions, where more would only wait.
 */
const REQUESTS_IN_FLIGHT = 8;

/** Tries of a request's unprocessed part (DynamoDB throttled it), the wait doubling from 50 ms up to 2 s. */
const UNPROCESSED_ATTEMPTS = 10;

const UNPROCESSED_BASE_DELAY_MS = 50;

const UNPROCESSED_MAX_DELAY_MS = 2_000;

const backoff = (attempt: number) =>
  new Promise((resolve) =>
    setTimeout(
      resolve,
      Math.min(UNPROCESSED_MAX_DELAY_MS, UNPROCESSED_BASE_DELAY_MS * 2 ** attempt) *
        (0.5 + Math.random() / 2),
    ),
  );

/** Sends `request` for `pending` until nothing is left unprocessed, a bounded number of tries. */
async function untilProcessed<T>(
  pending: T[],
  request: (pending: T[]) => Promise<T[]>,
  what: string,
): Promise<void> {
  let left = pending;
  for (let attempt = 0; left.length > 0; attempt++) {
    if (attempt === UNPROCESSED_ATTEMPTS)
      throw new Error(`${left.length} ${what} still unprocessed after ${UNPROCESSED_ATTEMPTS} tries`);
    if (attempt > 0) await backoff(attempt - 1);
    left = await request(left);
  }
}

/**
 * Runs `send` over the batches, `REQUESTS_IN_FLIGHT` at a time; after a
 * failure no further batch is sent, and the first failure is thrown once
 * those in flight are done.
 */
async function sendAll<T>(batches: readonly T[], send: (batch: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < batches.length) {
      const batch = batches[next++]!;
      try {
        await send(batch);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(REQUESTS_IN_FLIGHT, batches.length) }, worker));
  if (failure) throw failure.error;
}

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );

/**
 * Puts items with BatchWriteItem, 25 a request, several requests in flight;
 * what DynamoDB leaves unprocessed is sent again after a growing wait.
 * `onWritten` hears the number written after each request.
 */
export async function putItems(
  items: readonly Item[],
  onWritten: (count: number) => void = () => undefined,
  table: TableContext = tableContext(),
): Promise<void> {
  type PutRequest = { PutRequest: { Item: Item } };
  await sendAll(chunks(items, WRITE_BATCH), async (batch) => {
    const requests: PutRequest[] = batch.map((Item) => ({ PutRequest: { Item } }));
    await untilProcessed(
      requests,
      async (pending) => {
        const { UnprocessedItems } = await table.client.send(
          new BatchWriteCommand({ RequestItems: { [table.name]: pending } }),
        );
        const left = (UnprocessedItems?.[table.name] ?? []) as PutRequest[];
        onWritten(pending.length - left.length);
        return left;
      },
      'items',
    );
  });
}

/** DynamoDB's limit of items in one transaction, less the marker's delete. */
const MAX_INCREMENTS = MAX_TRANSACTION_ITEMS - 1;

/**
 * The marker of a bulk import under way, by the digest of its document. It is
 * put before the first item and deleted in the transaction that adds the
 * import's counters to the items others share (the organization's analytics
 * item), so those are added exactly once: an import interrupted before then
 * has added nothing, and is finished by running the same document again
 * (every item it put is put again, the same).
 */
export function bulkImportStore(table: TableSource = tableContext) {
  return {
    /** The import of this document under way in the organization, or null. */
    async find(orgId: number, digest: string): Promise<BulkImportUnderWay | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.bulkImport(orgId, digest), ConsistentRead: true }),
      );
      return Item ? bulkImportItem.parse(Item) : null;
    },

    /** Marks the import under way (again, when it is resumed). */
    async begin(orgId: number, digest: string, underWay: BulkImportUnderWay): Promise<void> {
      const { name, client } = table();
      await client.send(
        new PutCommand({
          TableName: name,
          Item: {
            ...keys.bulkImport(orgId, digest),
            type: 'bulkImport',
            orgId,
            messageIds: underWay.messageIds,
            startedAt: new Date().toISOString(),
          },
        }),
      );
    },

    /**
     * Adds the counter totals and ends the import, in one transaction. A
     * counter whose total is 0 is still added, so it exists afterwards as it
     * would after the transactions that moved it up and down again. When the
     * marker is gone, a concurrent run of the same import ended it: nothing is
     * added twice.
     */
    async commit(
      orgId: number,
      digest: string,
      increments: readonly { key: ItemKey; totals: Record<string, number> }[],
    ): Promise<void> {
      if (increments.length > MAX_INCREMENTS)
        throw new Error(
          `A bulk import adds to at most ${MAX_INCREMENTS} shared items, not ${increments.length}`,
        );
      const { name } = table();
      const updates: TransactItem[] = increments.flatMap(({ key, totals }) => {
        const entries = Object.entries(totals);
        if (entries.length === 0) return [];
        return [
          {
            Update: {
              TableName: name,
              Key: key,
              UpdateExpression: `ADD ${entries.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
              ExpressionAttributeNames: Object.fromEntries(
                entries.map(([counter], index) => [`#c${index}`, counter]),
              ),
              ExpressionAttributeValues: Object.fromEntries(
                entries.map(([, total], index) => [`:c${index}`, total]),
              ),
            },
          },
        ];
      });
      try {
        await transact(
          [
            {
              Delete: {
                TableName: name,
                Key: keys.bulkImport(orgId, digest),
                ConditionExpression: 'attribute_exists(pk)',
              },
              condition: 'bulk-import-ended',
            },
            ...updates,
          ],
          table(),
        );
      } catch (error) {
        if (!(error instanceof TransactionConflictError && error.failed.has('bulk-import-ended')))
          throw error;
      }
    },
  };
}

/** The bulk imports of the configured table. */
export const bulkImports = /* @__PURE__ */ bulkImportStore();

/** Which of the keys name a stored item: BatchGetItem of the keys only, 100 a request, several in flight. */
export async function findExistingKeys(
  itemKeys: readonly ItemKey[],
  table: TableContext = tableContext(),
): Promise<ItemKey[]> {
  const found: ItemKey[] = [];
  await sendAll(chunks(itemKeys, GET_BATCH), async (batch) => {
    await untilProcessed(
      batch,
      async (pending) => {
        const { Responses, UnprocessedKeys } = await table.client.send(
          new BatchGetCommand({
            RequestItems: {
              [table.name]: {
                Keys: pending,
                ConsistentRead: true,
                ProjectionExpression: '#pk, #sk',
                ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
              },
            },
          }),
        );
        found.push(...(Responses?.[table.name] ?? []).map(keyOf));
        return (UnprocessedKeys?.[table.name]?.Keys ?? []) as ItemKey[];
      },
      'keys',
    );
  });
  return found;
}
