/**
 * The store of the in-memory search (lib/search/engine.ts): per tenant and list, a log and
 * compressed chunks.
 *
 * - **The log** (`keys.searchLogOf`): one delta per write (`D#<id>#<version>`, the record
 *   that version leaves, or its tombstone), put by the write's own transaction, so a delta
 *   exists if and only if the change does; and, after the deltas in key order, the manifest
 *   (`M`): the chunks' generation, level and the version of each chunk. A search reads the
 *   whole log with one consistent Query: a few KB, whatever the tenant's size.
 * - **The chunks** (`keys.searchChunk`): the records of 2^level buckets of ids (by hash),
 *   as deflated lines (lib/search/model `encodeChunk`), about 11 KB each for suppliers. A search fetches only the chunks whose version in the
 *   manifest changed since it last read them.
 *
 * A fold writes the deltas into their chunks (each Put conditioned on the chunk's version
 * it read), then the manifest (conditioned on its `rev`), then deletes those deltas. The
 * manifest sorts after the deltas, so a Query that misses a deleted delta reads the manifest
 * that was written before the deletion, and with it the chunk that holds the delta. A chunk
 * written by a fold that then lost the manifest holds every delta it read, which are all
 * still in the log: a newer chunk than the manifest says is never wrong.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../domain/concurrency';
import { decodeChunk, decodeRecord, encodeChunk, encodeRecord, type SearchRecord, type VersionedRecord } from './model';
import { db, tableName, type TransactItem } from '../db/client';
import { conditionally } from '../db/conditions';
import { SEARCH_ITEMS } from '../db/item-types';
import { keys, type SearchList } from '../db/keys';
import { queryAll } from '../db/query';
import { deleteAll } from '../db/bulk';

export interface Manifest {
  /** Names this set of chunks: a new level or a first build writes a new generation beside the old. */
  generation: string;
  level: number;
  /** One more at every manifest write: what the next write is conditioned on. */
  rev: number;
  /** Each chunk's item version (0: no item). */
  versions: Uint32Array;
}

export interface LoggedDelta {
  sk: string;
  record: VersionedRecord;
}

export interface SearchLog {
  manifest: Manifest | undefined;
  deltas: LoggedDelta[];
}

export interface StoredChunk {
  version: number;
  records: SearchRecord[];
}

/** BatchGet requests in flight when a cold search fetches every chunk. */
const FETCH_CONCURRENCY = 8;

/** The delta a write puts in its own transaction: the record its version leaves (or its tombstone). */
export function searchDeltaPut(tenantId: string, list: SearchList, record: VersionedRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.searchDelta(tenantId, list, record.id, record.version), type: SEARCH_ITEMS.delta, r: JSON.stringify(encodeRecord(record)) },
    },
  };
}

const toVersions = (value: unknown): Uint32Array => {
  const bytes = Buffer.from(value as Uint8Array);
  const versions = new Uint32Array(bytes.length / 4);
  for (let index = 0; index < versions.length; index += 1) versions[index] = bytes.readUInt32LE(index * 4);
  return versions;
};

const fromVersions = (versions: Uint32Array): Uint8Array => {
  const bytes = Buffer.alloc(versions.length * 4);
  versions.forEach((version, index) => bytes.writeUInt32LE(version, index * 4));
  return bytes;
};

/** The whole log, manifest last: one consistent Query (more pages only for a log nobody has folded in a long time). */
export async function readSearchLog(tenantId: string, list: SearchList): Promise<SearchLog> {
  const log: SearchLog = { manifest: undefined, deltas: [] };
  for (const item of await queryAll(keys.searchLogOf(tenantId, list).pk, { consistent: true })) {
    if (item.sk === 'M') {
      log.manifest = { generation: String(item.generation), level: Number(item.level), rev: Number(item.rev), versions: toVersions(item.versions) };
    } else {
      log.deltas.push({ sk: String(item.sk), record: decodeRecord(JSON.parse(String(item.r))) });
    }
  }
  return log;
}

/** The chunks asked for (consistent); a chunk with no item is missing from the answer. */
export async function readSearchChunks(tenantId: string, list: SearchList, generation: string, chunks: number[]): Promise<Map<number, StoredChunk>> {
  const found = new Map<number, StoredChunk>();
  const batches: number[][] = [];
  for (let start = 0; start < chunks.length; start += 100) batches.push(chunks.slice(start, start + 100));
  await mapConcurrently(batches, FETCH_CONCURRENCY, async (batch) => {
    let pending: Record<string, unknown>[] = batch.map((chunk): Record<string, unknown> => ({ ...keys.searchChunk(tenantId, list, generation, chunk) }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 5) throw Object.assign(new Error('Unprocessed keys after retries'), { name: 'ThrottlingException' });
      const result = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[tableName()] ?? []) {
        const chunk = Number(String(item.sk).slice(generation.length + 1));
        found.set(chunk, { version: Number(item.v), records: decodeChunk(inflateRawSync(item.body as Uint8Array).toString('utf8')) });
      }
      pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    }
  });
  return found;
}

/**
 * Writes a chunk's records as version `expected + 1`, conditioned on the item being at
 * `expected` (absent for 0); false when another fold got there first.
 */
export async function writeSearchChunk(
  tenantId: string,
  list: SearchList,
  generation: string,
  chunk: number,
  records: SearchRecord[],
  expected: number,
): Promise<boolean> {
  return conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.searchChunk(tenantId, list, generation, chunk),
          type: SEARCH_ITEMS.chunk,
          v: expected + 1,
          n: records.length,
          body: deflateRawSync(encodeChunk(records)),
        },
        ...(expected === 0
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: 'v = :expected', ExpressionAttributeValues: { ':expected': expected } }),
      }),
    ),
  );
}

/** Writes the manifest, conditioned on its `rev` being `manifest.rev - 1` (absent for a first one); false when another write got there first. */
export async function writeSearchManifest(tenantId: string, list: SearchList, manifest: Manifest): Promise<boolean> {
  return conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.searchManifest(tenantId, list),
          type: SEARCH_ITEMS.manifest,
          generation: manifest.generation,
          level: manifest.level,
          rev: manifest.rev,
          versions: fromVersions(manifest.versions),
        },
        ...(manifest.rev === 1
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': manifest.rev - 1 } }),
      }),
    ),
  );
}

/** Deletes folded deltas, by sort key. */
export async function deleteSearchDeltas(tenantId: string, list: SearchList, sks: string[]): Promise<void> {
  const { pk } = keys.searchLogOf(tenantId, list);
  await deleteAll(sks.map((sk) => ({ pk, sk })));
}

/** Deletes the chunks of a generation no manifest names any more. */
export async function deleteSearchChunks(tenantId: string, list: SearchList, generation: string, chunks: number[]): Promise<void> {
  await deleteAll(chunks.map((chunk) => keys.searchChunk(tenantId, list, generation, chunk)));
}

/** A new generation's name: 8 random characters. */
export const newGeneration = (): string => randomBytes(6).toString('base64url');
