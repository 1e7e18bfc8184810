import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionally } from '../db/conditions';
import { db, tableName, type TransactItem } from '../db/client';
import { keys } from '../db/keys';
import { queryAll } from '../db/query';
import { putAll } from '../db/bulk';

/**
 * The supplier index in blocks, so that a page deep in the unsearched list does not read
 * every entry before it (page 1,000 at 100,000 suppliers costs what page 1 does). A block is a run of
 * consecutive index entries, from its `firstSk` up to the next block's, with their count;
 * the blocks tile the index in order. A page at offset `o` reads every block header (a few
 * hundred small items), adds up the counts to find the block where `o` falls, and reads the
 * index from that block's first entry: at most a block plus the page.
 *
 * Every write that adds an entry to the index or takes one out counts it in its block in the
 * same transaction (`n`, and `writes`, which only grows), conditioned on the block's
 * `version`, which only a split changes: so writes to one block never fail each other's
 * conditions, and a write that read a block before it was split reads again. A block that
 * grows past MAX_BLOCK_ENTRIES is split at its median entry after the write that filled it:
 * the split first freezes the block for a moment (`frozenUntil`, a lease that writes wait
 * out by retrying), so that it reads a block nobody writes, then writes both halves
 * conditioned on the `version` and `writes` it read. Without the freeze, a split under a
 * steady stream of creates into one block (names created in order) lost every time and the
 * block grew without bound. A tenant whose suppliers predate the blocks
 * has none: its writes skip them, its deep pages read the index as before, and `npm run
 * migrate` builds them.
 */

/** A block splits in two once it holds more entries than this (a deep page reads at most one block and the page). */
export const MAX_BLOCK_ENTRIES = 400;

export interface SupplierBlock {
  /** The sort key of the block's first index entry; '' for the first block. */
  firstSk: string;
  count: number;
  /** Changed by splits only. */
  version: number;
  /** How many writes counted into or out of the block (a split is conditioned on it). */
  writes: number;
}

const BLOCK_PREFIX = 'B#';
const toBlock = (item: Record<string, unknown>): SupplierBlock => ({
  firstSk: String(item.sk).slice(BLOCK_PREFIX.length),
  count: Number(item.n ?? 0),
  version: Number(item.version ?? 0),
  writes: Number(item.writes ?? 0),
});

/** The block an index entry belongs to (the last one starting at or before it), or undefined when the tenant has no blocks. */
export async function findSupplierBlock(tenantId: string, entrySk: string): Promise<SupplierBlock | undefined> {
  const { pk } = keys.supplierBlocksOf(tenantId);
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :entry',
      ExpressionAttributeValues: { ':pk': pk, ':first': BLOCK_PREFIX, ':entry': keys.supplierBlock(tenantId, entrySk).sk },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return Items[0] && toBlock(Items[0]);
}

/** How long a split may freeze its block (writes to it retry meanwhile); it needs one read of at most a block. */
const FREEZE_MS = 3_000;
const NOT_FROZEN = '(attribute_not_exists(frozenUntil) OR frozenUntil < :now)';

/**
 * Counts an entry into (`delta` 1) or out of (-1) its block, conditioned on the block not
 * having been split since it was read and not being frozen by a split now.
 */
export function blockCountWrite(tenantId: string, block: SupplierBlock, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.supplierBlock(tenantId, block.firstSk),
      UpdateExpression: 'ADD n :delta, writes :one',
      ConditionExpression: `version = :version AND ${NOT_FROZEN}`,
      ExpressionAttributeValues: { ':one': 1, ':delta': delta, ':version': block.version, ':now': Date.now() },
    },
  };
}

/** The first block of a tenant's index, written with its first entry (fails when another write created it first). */
export function firstBlockWrite(tenantId: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.supplierBlock(tenantId, ''), n: 1, version: 1, writes: 1 },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Every block of the tenant, in order (consistent). */
export async function readSupplierBlocks(tenantId: string): Promise<SupplierBlock[]> {
  return (await queryAll(keys.supplierBlocksOf(tenantId).pk, { consistent: true })).map(toBlock);
}

/** Up to `limit` index entries from `firstSk` on (all of them from the start for ''), consistent. */
async function entriesFrom(tenantId: string, firstSk: string, limit: number): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: firstSk === '' ? 'pk = :pk' : 'pk = :pk AND sk >= :first',
      ExpressionAttributeValues: { ':pk': keys.supplierIndex(tenantId).pk, ...(firstSk === '' ? {} : { ':first': firstSk }) },
      ExpressionAttributeNames: { '#id': 'id', '#sk': 'sk' },
      ProjectionExpression: '#sk, #id',
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return Items;
}

/**
 * Splits the block starting at `firstSk` at its median entry if it holds more than
 * MAX_BLOCK_ENTRIES: freeze it (a lease writes wait out), read it, write both halves
 * conditioned on the freeze and on nothing having been written, unfreeze. Best effort: a
 * block frozen by another split, or changed before the freeze, is left for the next write.
 */
export async function splitSupplierBlockIfFull(tenantId: string, firstSk: string): Promise<void> {
  const Key = keys.supplierBlock(tenantId, firstSk);
  const header = async () => {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
    return Item && toBlock(Item);
  };
  const before = await header();
  if (!before || before.count <= MAX_BLOCK_ENTRIES) return;
  const now = Date.now();
  const lease = now + FREEZE_MS;
  const frozen = await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET frozenUntil = :lease',
        ConditionExpression: `version = :version AND ${NOT_FROZEN}`,
        ExpressionAttributeValues: { ':lease': lease, ':version': before.version, ':now': now },
      }),
    ),
  );
  if (!frozen) return;
  let split = false;
  try {
    // Frozen: what it holds now stays put until the halves are written (or the lease ends).
    const block = await header();
    if (!block || block.count <= MAX_BLOCK_ENTRIES) return;
    const entries = await entriesFrom(tenantId, firstSk, block.count);
    const half = Math.floor(block.count / 2);
    const median = entries[half]?.sk;
    if (entries.length < block.count || typeof median !== 'string') return;
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key,
              UpdateExpression: 'SET n = :half, version = :next REMOVE frozenUntil',
              ConditionExpression: 'version = :version AND writes = :writes AND frozenUntil = :lease',
              ExpressionAttributeValues: { ':half': half, ':next': block.version + 1, ':version': block.version, ':writes': block.writes, ':lease': lease },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.supplierBlock(tenantId, median), n: block.count - half, version: 1, writes: 0 },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    split = true;
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TransactionCanceledException')) throw error;
  } finally {
    if (!split) {
      await conditionally(
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key,
            UpdateExpression: 'REMOVE frozenUntil',
            ConditionExpression: 'frozenUntil = :lease',
            ExpressionAttributeValues: { ':lease': lease },
          }),
        ),
      );
    }
  }
}

/**
 * The ids of the `limit` index entries from `offset` on, found through the blocks (read
 * beside `total`, the tenant's count): one Query of at most a block and the page. Null when
 * the blocks do not add up to the count (a tenant whose suppliers predate them, or a write
 * between the two reads): the caller then reads the index from its start.
 */
export async function pageIdsFromBlocks(tenantId: string, blocks: SupplierBlock[], total: number, offset: number, limit: number): Promise<string[] | null> {
  if (blocks.length === 0 || blocks.reduce((sum, block) => sum + block.count, 0) !== total) return null;
  if (offset >= total) return [];
  let start = 0;
  let index = 0;
  while (index < blocks.length - 1 && start + (blocks[index] as SupplierBlock).count <= offset) start += (blocks[index++] as SupplierBlock).count;
  const skip = offset - start;
  const entries = await entriesFrom(tenantId, (blocks[index] as SupplierBlock).firstSk, skip + limit);
  return entries.slice(skip, skip + limit).map((entry) => String(entry.id));
}

/**
 * Rebuilds a tenant's blocks from its whole index, in blocks of half the maximum: for the
 * bulk loaders and `npm run migrate`, never beside live writes (a write between the read and
 * the rebuild would leave a count off, and deep pages would read the index in full until the
 * next rebuild). Returns how many blocks it wrote.
 */
export async function rebuildSupplierBlocks(tenantId: string): Promise<number> {
  const [old, entries] = await Promise.all([readSupplierBlocks(tenantId), queryAll(keys.supplierIndex(tenantId).pk, { consistent: true })]);
  await Promise.all(old.map((block) => db().send(new DeleteCommand({ TableName: tableName(), Key: keys.supplierBlock(tenantId, block.firstSk) }))));
  const size = MAX_BLOCK_ENTRIES / 2;
  const blocks: Record<string, unknown>[] = [];
  for (let start = 0; start < entries.length; start += size) {
    blocks.push({
      ...keys.supplierBlock(tenantId, start === 0 ? '' : String(entries[start]?.sk)),
      n: Math.min(size, entries.length - start),
      version: 1,
      writes: 0,
    });
  }
  await putAll(blocks);
  return blocks.length;
}
