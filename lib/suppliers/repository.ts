/**
 * Suppliers. Four kinds of items per tenant:
 *
 * - the full supplier (`keys.supplier`), read only for the suppliers a page shows;
 * - a compact index entry (`keys.supplierIndexEntry`) in a partition of its own, sorted by
 *   the normalized name, holding only `id` and the search haystack (`lib/suppliers/search`);
 *   unsearched pages read these, never the full items;
 * - the document sentinel (uniqueness within the tenant) and the tenant's supplier count
 *   (`keys.supplierStats`, the `total` of an unsearched page);
 * - the search's delta of each write (./search), which searches read (lib/search/engine).
 *
 * Every write is one transaction with its audit entry (./audit, last in it), so the index,
 * the sentinel, the count and the search never drift from the suppliers, and no change
 * commits without its entry.
 */
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { Conflict, NotFound } from '../errors';
import type { Supplier } from './model';
import { SUPPLIER_ITEMS } from '../db/item-types';

import { searchHaystack, sortName, supplierSearchRecord } from './search';
import type { SearchRecord } from '../search/model';
import { searchDeltaPut } from '../search/repository';
import { queryAll } from '../db/query';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { auditItems } from '../audit/repository';
import { completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';
import { failedConditions } from '../db/conditions';
import { fieldsOf, pick, withoutNulls } from '../db/items';
import { keys, type Key } from '../db/keys';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { putAll } from '../db/bulk';
import { linkCount, noLinksCheck } from '../supplier-products/repository';
import {
  blockCountWrite,
  findSupplierBlock,
  firstBlockWrite,
  MAX_BLOCK_ENTRIES,
  pageIdsFromBlocks,
  readSupplierBlocks,
  rebuildSupplierBlocks,
  splitSupplierBlockIfFull,
  type SupplierBlock,
} from './blocks-repository';

/** What an update needs besides the supplier: where its index entry is, and the version it read. */
interface StoredSupplier {
  supplier: Supplier;
  sortName: string;
  version: number;
}

const FIELDS = fieldsOf<Supplier>()(['id', 'name', 'corporateName', 'document', 'email', 'phone', 'active', 'createdAt', 'updatedAt']);

/** Optimistic writes (version check, transaction conflicts on the count) before giving up with a 503. */
const WRITE_ATTEMPTS = 20;
/**
 * Upper bound of one index Query's `Limit` (DynamoDB's own 1 MB page, a few thousand index
 * entries, ends a page first); only there so a deep page number cannot overflow it.
 */
const QUERY_LIMIT_CAP = 10_000;

const RETRY = Symbol('retry');

export const toSupplier = (item: Record<string, unknown>): Supplier => pick<Supplier>(item, FIELDS);

function supplierItem(tenantId: string, supplier: Supplier, version: number): Record<string, unknown> {
  return { ...keys.supplier(tenantId, supplier.id), type: SUPPLIER_ITEMS.supplier, ...withoutNulls(supplier), sortName: sortName(supplier.name), version };
}

/** The compact index entry: its key orders it by name; `id` and `search` are all a page or a search reads. */
function indexEntry(tenantId: string, supplier: Supplier): Key & { id: string; search: string } {
  return { ...keys.supplierIndexEntry(tenantId, sortName(supplier.name), supplier.id), id: supplier.id, search: searchHaystack(supplier) };
}

function documentSentinel(tenantId: string, supplier: Supplier): Record<string, unknown> {
  return { ...keys.supplierDocument(tenantId, supplier.document), type: SUPPLIER_ITEMS.document, supplierId: supplier.id };
}

/** A transaction cancelled because another one held an item (not a failed condition): try again. */
function isTransactionConflict(error: unknown): boolean {
  return (error instanceof Error && error.name === 'TransactionConflictException') || cancellationCodes(error).includes('TransactionConflict');
}

/** Run `step` until it stops asking for a retry (lib/db/retry.ts); after WRITE_ATTEMPTS, a 503. */
function withRetries<T>(step: () => Promise<T | typeof RETRY>): Promise<T> {
  return withOptimisticRetries<T>(async () => {
    const outcome = await step();
    return outcome === RETRY ? { retry: true } : { retry: false, value: outcome };
  }, WRITE_ATTEMPTS);
}

/**
 * One transaction: the supplier, its document sentinel (409 when the tenant already has a
 * supplier with that document), its index entry, the tenant's count + 1 and its block's
 * count + 1 (./supplier-blocks; the tenant's first block with its first supplier), the
 * search delta, the key's completion and the audit entry. Concurrent creates in one tenant contend for the count and
 * the block, so a conflict is retried.
 */
export async function insertSupplier(tenantId: string, supplier: Supplier, audit: AuditRecord, key?: KeyCompletion): Promise<void> {
  const table = tableName();
  const entry = indexEntry(tenantId, supplier);
  // A tenant with suppliers but no blocks (written before them) is counted without blocks.
  let withoutBlocks = false;
  const block = await withRetries(async () => {
    const found = withoutBlocks ? undefined : await findSupplierBlock(tenantId, entry.sk);
    const firstBlock = !found && !withoutBlocks;
    const items: TransactItem[] = [
      { Put: { TableName: table, Item: supplierItem(tenantId, supplier, 1), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: table, Item: documentSentinel(tenantId, supplier), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: table, Item: entry } },
      {
        Update: {
          TableName: table,
          Key: keys.supplierStats(tenantId),
          UpdateExpression: 'ADD #count :one',
          // The first block comes with the first supplier: a tenant that has suppliers and no block predates them.
          ...(firstBlock ? { ConditionExpression: 'attribute_not_exists(#count) OR #count = :zero' } : {}),
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ...(firstBlock ? { ':zero': 0 } : {}) },
        },
      },
    ];
    const blockIndex = found ? items.push(blockCountWrite(tenantId, found, 1)) - 1 : firstBlock ? items.push(firstBlockWrite(tenantId)) - 1 : -1;
    items.push(searchDeltaPut(tenantId, 'suppliers', supplierSearchRecord(supplier, 1)));
    const keyIndex = items.length;
    items.push(...completionItems(key), ...auditItems(audit));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return found ?? null;
    } catch (error) {
      keyTakenOver(error, keyIndex);
      const failed = failedConditions(error);
      if (failed?.includes(1)) throw new Conflict('A supplier with this document already exists');
      // The block was split, or another create wrote the first block: read it again.
      if (failed?.includes(blockIndex)) return RETRY;
      if (firstBlock && failed?.includes(3)) {
        withoutBlocks = true;
        return RETRY;
      }
      if (isTransactionConflict(error)) return RETRY;
      throw error;
    }
  });
  if (block && block.count + 1 > MAX_BLOCK_ENTRIES) await splitSupplierBlockIfFull(tenantId, block.firstSk);
}

async function readStoredSupplier(tenantId: string, supplierId: string): Promise<StoredSupplier | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.supplier(tenantId, supplierId), ConsistentRead: true }));
  if (!Item) return undefined;
  return { supplier: toSupplier(Item), sortName: String(Item.sortName), version: Number(Item.version) };
}

/**
 * The tenant's supplier with this id, or undefined (an id of another tenant is not in the
 * caller's partition, so it is undefined too). One GetItem, strongly consistent like every
 * other read of suppliers: a GET right after a PATCH or DELETE never answers the state before it.
 */
export async function findSupplier(tenantId: string, supplierId: string): Promise<Supplier | undefined> {
  return (await readStoredSupplier(tenantId, supplierId))?.supplier;
}

/**
 * Write `next` over `stored` if nobody changed the supplier since it was read (version
 * check); false when someone did, so the caller reads again. A new document claims its
 * sentinel (409 when taken) and frees the old one; a change to what search or ordering
 * sees rewrites the index entry, moving it (delete + put) when the sort name changed. All
 * in one transaction with the search delta and the audit entry (even a change to `active`
 * alone, so the entry commits with it).
 */
async function writeSupplierChanges(tenantId: string, stored: StoredSupplier, next: Supplier, audit: AuditRecord): Promise<boolean> {
  const table = tableName();
  const before = stored.supplier;
  const supplierPut = {
    TableName: table,
    Item: supplierItem(tenantId, next, stored.version + 1),
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':version': stored.version },
  };
  const items: TransactItem[] = [{ Put: supplierPut }];

  let sentinelIndex: number | undefined;
  if (next.document !== before.document) {
    sentinelIndex = items.push({ Put: { TableName: table, Item: documentSentinel(tenantId, next), ConditionExpression: 'attribute_not_exists(pk)' } }) - 1;
    items.push({ Delete: { TableName: table, Key: keys.supplierDocument(tenantId, before.document) } });
  }

  const entry = indexEntry(tenantId, next);
  const previousKey = keys.supplierIndexEntry(tenantId, stored.sortName, before.id);
  const blockIndexes: number[] = [];
  let into: SupplierBlock | undefined;
  if (entry.sk !== previousKey.sk) {
    items.push({ Delete: { TableName: table, Key: previousKey } }, { Put: { TableName: table, Item: entry } });
    // A rename that moves the entry to another block moves its count too.
    const [from, to] = await Promise.all([findSupplierBlock(tenantId, previousKey.sk), findSupplierBlock(tenantId, entry.sk)]);
    if (from && to && from.firstSk !== to.firstSk) {
      blockIndexes.push(items.push(blockCountWrite(tenantId, from, -1)) - 1, items.push(blockCountWrite(tenantId, to, 1)) - 1);
      into = to;
    }
  } else if (entry.search !== searchHaystack(before)) {
    items.push({ Put: { TableName: table, Item: entry } });
  }

  // Last, so the indexes above are the cancellation reasons' (the entry's puts and the search delta have no condition).
  items.push(searchDeltaPut(tenantId, 'suppliers', supplierSearchRecord(next, stored.version + 1)), ...auditItems(audit));

  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    if (into && into.count + 1 > MAX_BLOCK_ENTRIES) await splitSupplierBlockIfFull(tenantId, into.firstSk);
    return true;
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(0) || blockIndexes.some((index) => failed?.includes(index))) return false;
    if (sentinelIndex !== undefined && failed?.includes(sentinelIndex)) throw new Conflict('A supplier with this document already exists');
    if (isTransactionConflict(error)) return false;
    throw error;
  }
}

/**
 * Read the supplier, let `change` compute its new state, write it with the audit entry
 * `audit` makes of that read and that state (optimistic, retried when a concurrent update got
 * there first: the entry that commits compares the state its write was conditioned on).
 * 404 when the tenant has no such supplier.
 */
export async function modifySupplier(
  tenantId: string,
  supplierId: string,
  change: (current: Supplier) => Supplier,
  audit: (before: Supplier, after: Supplier) => AuditRecord,
): Promise<Supplier> {
  return withRetries(async () => {
    const stored = await readStoredSupplier(tenantId, supplierId);
    if (!stored) throw new NotFound('No such supplier');
    const next = change(stored.supplier);
    return (await writeSupplierChanges(tenantId, stored, next, audit(stored.supplier, next))) ? next : RETRY;
  });
}

/**
 * Delete the supplier for good, in one transaction conditioned on the version it read: the
 * item, its document sentinel (the document is free again in the tenant), its index entry,
 * the tenant's count - 1 and its block's, the search's tombstone and the audit entry. A concurrent update or delete
 * makes it read again, so it removes the index entry the supplier has now, and of parallel
 * deletes exactly one succeeds (with its one entry): the others find nothing, a 404.
 */
export async function removeSupplier(tenantId: string, supplierId: string, audit: AuditRecord): Promise<void> {
  const table = tableName();
  await withRetries(async () => {
    const stored = await readStoredSupplier(tenantId, supplierId);
    if (!stored) throw new NotFound('No such supplier');
    const links = await linkCount(tenantId, 'supplier', supplierId);
    if (links > 0)
      throw new Conflict(
        `The supplier sells ${links} product${links === 1 ? '' : 's'} here: remove them from it (DELETE /suppliers/{id}/products/{productId}) before deleting it`,
      );
    const entryKey = keys.supplierIndexEntry(tenantId, stored.sortName, supplierId);
    const block = await findSupplierBlock(tenantId, entryKey.sk);
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: table,
                Key: keys.supplier(tenantId, supplierId),
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': stored.version },
              },
            },
            { Delete: { TableName: table, Key: keys.supplierDocument(tenantId, stored.supplier.document) } },
            { Delete: { TableName: table, Key: entryKey } },
            {
              Update: {
                TableName: table,
                Key: keys.supplierStats(tenantId),
                UpdateExpression: 'ADD #count :minusOne',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':minusOne': -1 },
              },
            },
            ...(block ? [blockCountWrite(tenantId, block, -1)] : []),
            searchDeltaPut(tenantId, 'suppliers', { id: supplierId, version: stored.version + 1, gone: true }),
            // A product linked meanwhile fails the delete, which reads again and refuses.
            noLinksCheck(tenantId, 'supplier', supplierId),
            ...auditItems(audit),
          ],
        }),
      );
      return undefined;
    } catch (error) {
      const failed = failedConditions(error);
      // Item 4 is the block's count when there is a block (the search delta and the audit puts after it have no condition).
      if (failed?.includes(0) || (block && failed?.includes(4)) || failed?.includes(block ? 6 : 5) || isTransactionConflict(error)) return RETRY;
      throw error;
    }
  });
}

/**
 * Many new suppliers at once, for the seed and the benchmarks only (100,000 through
 * insertSupplier's transactions take DynamoDB Local ten minutes): the very items insertSupplier
 * writes, by BatchWriteItem, then the count and the blocks once. No condition: the caller gives suppliers
 * with distinct, new documents.
 */
export async function bulkInsertSuppliers(tenantId: string, suppliers: Supplier[], onProgress?: (written: number) => void): Promise<void> {
  await putAll(
    suppliers.flatMap((supplier): Record<string, unknown>[] => [
      supplierItem(tenantId, supplier, 1),
      documentSentinel(tenantId, supplier),
      { ...indexEntry(tenantId, supplier) },
    ]),
    onProgress && ((written) => onProgress(Math.floor(written / 3))),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.supplierStats(tenantId),
      UpdateExpression: 'ADD #count :added',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':added': suppliers.length },
    }),
  );
  await rebuildSupplierBlocks(tenantId);
}

/** The tenant's supplier count (0 before the first supplier). */
async function readSupplierCount(tenantId: string): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.supplierStats(tenantId),
      ProjectionExpression: '#count',
      ExpressionAttributeNames: { '#count': 'count' },
      ConsistentRead: true,
    }),
  );
  return Number(Item?.count ?? 0);
}

/** Full suppliers by id, in the order asked (one consistent BatchGet); a missing id is left out. */
async function getSuppliersInOrder(tenantId: string, ids: string[]): Promise<Supplier[]> {
  const items = await getMany(ids.map((id) => keys.supplier(tenantId, id)));
  return items.flatMap((item) => (item ? [toSupplier(item)] : []));
}

export interface SupplierPage {
  suppliers: Supplier[];
  total: number;
}

/**
 * A page of every supplier, by name. From offset MAX_BLOCK_ENTRIES on, the index blocks say
 * where the page starts (at most a block and the page are read). Before it, or for a tenant
 * without blocks, it reads only the first `offset + limit` index entries
 * (keys and `id`, `Limit` set so no entry past the page is read), then the page's full
 * items. `total` is the count of the entries when the index ended within the read, else
 * the tenant's supplier count, read beside the full items.
 */
export async function readSupplierPage(tenantId: string, offset: number, limit: number): Promise<SupplierPage> {
  if (offset >= MAX_BLOCK_ENTRIES) {
    // Deep in the list: where the page starts comes from the blocks (./supplier-blocks).
    const [blocks, total] = await Promise.all([readSupplierBlocks(tenantId), readSupplierCount(tenantId)]);
    const ids = await pageIdsFromBlocks(tenantId, blocks, total, offset, limit);
    if (ids) return { suppliers: await getSuppliersInOrder(tenantId, ids), total };
  }
  const wanted = offset + limit;
  const pageIds: string[] = [];
  let seen = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.supplierIndex(tenantId).pk },
        ExpressionAttributeNames: { '#id': 'id' },
        ProjectionExpression: '#id',
        ConsistentRead: true,
        Limit: Math.min(wanted - seen, QUERY_LIMIT_CAP),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? []) {
      if (seen >= offset && seen < wanted) pageIds.push(String(item.id));
      seen += 1;
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey && seen < wanted);

  const [suppliers, total] = await Promise.all([getSuppliersInOrder(tenantId, pageIds), startKey ? readSupplierCount(tenantId) : seen]);
  return { suppliers, total };
}

/**
 * A page of the suppliers whose index entry `matches`, by name, found by reading every index
 * entry of the tenant (`id` and `search` only), then the page's full items. Searches go
 * through lib/search/engine; this full scan is what the tests and the benchmark compare it
 * with.
 */
export async function searchSupplierPage(tenantId: string, matches: (haystack: string) => boolean, offset: number, limit: number): Promise<SupplierPage> {
  const pageIds: string[] = [];
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.supplierIndex(tenantId).pk },
        ExpressionAttributeNames: { '#id': 'id', '#search': 'search' },
        ProjectionExpression: '#id, #search',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? []) {
      if (!matches(String(item.search))) continue;
      if (total >= offset && total < offset + limit) pageIds.push(String(item.id));
      total += 1;
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey);

  return { suppliers: await getSuppliersInOrder(tenantId, pageIds), total };
}

/** Every supplier of the tenant as the search holds it (a list's first search builds its chunks from these). */
async function readAllSupplierRecords(tenantId: string): Promise<SearchRecord[]> {
  const items = await queryAll(keys.supplier(tenantId, '').pk, { skPrefix: 'SUPPLIER#', consistent: true });
  return items.map((item) => supplierSearchRecord(toSupplier(item), Number(item.version)));
}

/** The suppliers' list for lib/search/engine. */
export const supplierSearchSource = { list: 'suppliers', readAll: readAllSupplierRecords } as const;

/** Which of `documents` a supplier of the tenant already has (their sentinels), for an import's dry run. */
export async function takenSupplierDocuments(tenantId: string, documents: readonly string[]): Promise<Set<string>> {
  const found = await getMany(documents.map((document) => keys.supplierDocument(tenantId, document)));
  return new Set(documents.filter((_, index) => found[index] !== undefined));
}
