/**
 * Search at memory speed over a tenant's list (suppliers, products): the function keeps each
 * tenant's records in memory (./ordered-index) and keeps them current from the store
 * (lib/search/repository) with one small consistent Query per search, the log: the
 * deltas of the writes not yet folded and the manifest of chunk versions. Only chunks whose
 * version changed are fetched again, so a warm search reads a few KB however large the
 * tenant, and sees every write that committed before it (read-your-writes).
 *
 * The search that finds FOLD_AT deltas or more in the log folds them into their chunks
 * after it has its answer, so the log stays small; a tenant that outgrows its chunk level
 * (or shrinks well below it) gets a new generation of chunks at the right level in the same
 * way. A tenant searched for the first time since it was created (or since the search
 * arrived) has no manifest: that search builds the chunks from the entities' own items.
 *
 * Memory: about 80 MB of heap per 100,000 suppliers (docs/performance.md). The tenants a
 * function holds are bounded by CACHE_SHARE of its memory; past that the least recently
 * searched go.
 */
import { logger } from '../log';
import type { SearchList } from '../db/keys';
import {
  deleteSearchChunks,
  deleteSearchDeltas,
  newGeneration,
  readSearchChunks,
  readSearchLog,
  writeSearchChunk,
  writeSearchManifest,
  type LoggedDelta,
  type Manifest,
  type SearchLog,
} from './repository';
import { mapConcurrently } from '../domain/concurrency';
import { compareKeys, OrderedIndex, type IndexPage } from './ordered-index';
import { chunkOf, isTombstone, later, levelFor, needsNewLevel, type SearchQuery, type SearchRecord, type VersionedRecord } from './model';

/** A search that reads this many deltas or more folds them into their chunks. */
export const FOLD_AT = 32;
/** Chunk writes in flight during a fold or a build. */
const WRITE_CONCURRENCY = 8;
/** Share of the function's memory the cached tenants may take. */
const CACHE_SHARE = 0.4;
/** How often a search starts over when the log changed under it (a new generation appeared meanwhile). */
const ATTEMPTS = 3;

/** Where a list's records come from when it has no chunks yet: every entity, read from its own items. */
export interface SearchSource {
  list: SearchList;
  readAll(tenantId: string): Promise<SearchRecord[]>;
}

/** One tenant's list, as this function holds it. */
class Projection {
  index = new OrderedIndex();
  /** The manifest this projection follows; its chunk versions are what was fetched. */
  manifest: Manifest;
  /** Per chunk: the manifest's version when it was last fetched (-1: fetch again), and the item's own. */
  private readonly fetchedAt: Int32Array;
  private readonly itemVersions: Uint32Array;
  /** Per chunk: the ids its content holds. */
  private readonly chunkIds: (string[] | undefined)[];
  /** Every chunk's records, by id. */
  private readonly base = new Map<string, SearchRecord>();
  /** The latest delta of each id in the log as last read. */
  private deltas = new Map<string, VersionedRecord>();
  /** What the index holds for each id. */
  private current = new Map<string, SearchRecord>();

  constructor(manifest: Manifest) {
    this.manifest = { ...manifest, versions: new Uint32Array(manifest.versions.length) };
    this.fetchedAt = new Int32Array(manifest.versions.length);
    this.itemVersions = new Uint32Array(manifest.versions.length);
    this.chunkIds = new Array<string[] | undefined>(manifest.versions.length);
  }

  get bytes(): number {
    return this.index.bytes;
  }

  /** Brings the projection to `log`: fetches changed chunks, takes the deltas. False when a chunk it names is gone (a new generation replaced it). */
  async refresh(tenantId: string, list: SearchList, log: SearchLog & { manifest: Manifest }): Promise<boolean> {
    // What changed matters once something is held; a first load takes everything.
    const changed = this.current.size === 0 ? undefined : new Set<string>();
    const stale: number[] = [];
    log.manifest.versions.forEach((version, chunk) => {
      if (version !== this.fetchedAt[chunk]) stale.push(chunk);
    });
    if (stale.length > 0) {
      const fetched = await readSearchChunks(
        tenantId,
        list,
        log.manifest.generation,
        stale.filter((chunk) => (log.manifest.versions[chunk] as number) > 0 || this.fetchedAt[chunk] === -1),
      );
      for (const chunk of stale) {
        const stored = fetched.get(chunk);
        if (!stored && (log.manifest.versions[chunk] as number) > 0) return false;
        this.replaceChunk(chunk, stored?.records ?? [], stored?.version ?? 0, changed);
        this.fetchedAt[chunk] = log.manifest.versions[chunk] as number;
      }
    }
    const deltas = latestOf(log.deltas);
    if (changed)
      for (const id of new Set([...this.deltas.keys(), ...deltas.keys()])) if (this.deltas.get(id)?.version !== deltas.get(id)?.version) changed.add(id);
    this.deltas = deltas;
    this.manifest = { ...log.manifest, versions: log.manifest.versions };
    if (changed) this.apply(changed);
    else this.load();
    return true;
  }

  private replaceChunk(chunk: number, records: SearchRecord[], itemVersion: number, changed: Set<string> | undefined): void {
    for (const id of this.chunkIds[chunk] ?? []) {
      this.base.delete(id);
      changed?.add(id);
    }
    for (const record of records) {
      this.base.set(record.id, record);
      changed?.add(record.id);
    }
    this.chunkIds[chunk] = records.map((record) => record.id);
    this.itemVersions[chunk] = itemVersion;
  }

  /** Puts in the index, for each id, the later of its chunk record and its delta (nothing for a tombstone). */
  private apply(changed: Set<string>): void {
    for (const id of changed) {
      const winner = later<VersionedRecord>(this.base.get(id), this.deltas.get(id));
      const held = this.current.get(id);
      if (winner && !isTombstone(winner)) {
        if (held && held.version === winner.version) continue;
        if (held) this.index.remove(held.key);
        this.index.insert(winner);
        this.current.set(id, winner);
      } else if (held) {
        this.index.remove(held.key);
        this.current.delete(id);
      }
    }
  }

  /** A first load: every id's winner, sorted once rather than inserted one by one. */
  private load(): void {
    this.current = new Map(this.base);
    for (const [id, delta] of this.deltas) {
      const winner = later<VersionedRecord>(this.base.get(id), delta) as VersionedRecord;
      if (isTombstone(winner)) this.current.delete(id);
      else this.current.set(id, winner);
    }
    this.index = OrderedIndex.of([...this.current.values()]);
  }

  /** What a chunk holds once `deltas` are folded into it: the live winners of its ids. */
  private foldedChunk(chunk: number, level: number, deltaIds: string[]): SearchRecord[] {
    const records: SearchRecord[] = [];
    for (const id of new Set([...(this.chunkIds[chunk] ?? []), ...deltaIds])) {
      const winner = this.current.get(id);
      if (winner && chunkOf(id, level) === chunk) records.push(winner);
    }
    return records.sort(byKey);
  }

  /**
   * Folds the deltas of `log` into their chunks (or writes a new generation when the level
   * no longer fits), then deletes them. Best effort: a fold that loses a race to another
   * changes nothing that matters (its chunks hold every delta still in the log) and leaves
   * the deltas for the next search.
   */
  async fold(tenantId: string, list: SearchList, deltas: LoggedDelta[]): Promise<void> {
    const manifest = this.manifest;
    if (needsNewLevel(this.current.size, manifest.level)) {
      await this.rebuild(tenantId, list, deltas);
      return;
    }
    if (deltas.length < FOLD_AT) return;
    const byChunk = new Map<number, string[]>();
    for (const { record } of deltas) {
      const chunk = chunkOf(record.id, manifest.level);
      byChunk.set(chunk, [...(byChunk.get(chunk) ?? []), record.id]);
    }
    const versions = new Uint32Array(manifest.versions);
    const written = new Map<number, SearchRecord[]>();
    await mapConcurrently([...byChunk], WRITE_CONCURRENCY, async ([chunk, ids]) => {
      const records = this.foldedChunk(chunk, manifest.level, ids);
      const expected = this.itemVersions[chunk] as number;
      if (await writeSearchChunk(tenantId, list, manifest.generation, chunk, records, expected)) {
        versions[chunk] = expected + 1;
        written.set(chunk, records);
      } else {
        // Another fold wrote it: fetch it again at the next search.
        this.fetchedAt[chunk] = -1;
      }
    });
    for (const [chunk, records] of written) this.replaceChunk(chunk, records, versions[chunk] as number, new Set());
    if (written.size < byChunk.size) return;
    const next: Manifest = { ...manifest, rev: manifest.rev + 1, versions };
    if (!(await writeSearchManifest(tenantId, list, next))) return;
    for (const chunk of written.keys()) this.fetchedAt[chunk] = versions[chunk] as number;
    this.manifest = next;
    await deleteSearchDeltas(
      tenantId,
      list,
      deltas.map((delta) => delta.sk),
    );
  }

  /** A new generation at the level the tenant's size calls for; the old one's chunks and the deltas go once the manifest names it. */
  private async rebuild(tenantId: string, list: SearchList, deltas: LoggedDelta[]): Promise<void> {
    const old = this.manifest;
    const next = await writeGeneration(tenantId, list, [...this.current.values()], old.rev + 1);
    if (!next) return;
    await Promise.all([
      deleteSearchChunks(
        tenantId,
        list,
        old.generation,
        [...old.versions.keys()].filter((chunk) => (old.versions[chunk] as number) > 0),
      ),
      deleteSearchDeltas(
        tenantId,
        list,
        deltas.map((delta) => delta.sk),
      ),
    ]);
  }
}

/** A chunk's records in key order: a cold load then sorts runs, which takes a third less. */
const byKey = (left: SearchRecord, right: SearchRecord): number => compareKeys(left.key, right.key);

/** The latest delta of each id. */
function latestOf(deltas: LoggedDelta[]): Map<string, VersionedRecord> {
  const latest = new Map<string, VersionedRecord>();
  for (const { record } of deltas) latest.set(record.id, later(latest.get(record.id), record) as VersionedRecord);
  return latest;
}

/**
 * Writes `records` as a new generation at the level their number calls for, then the
 * manifest naming it (revision `rev`: 1 for a list's first); the manifest, or undefined when
 * another write got there first (its chunks are then deleted).
 */
async function writeGeneration(tenantId: string, list: SearchList, records: SearchRecord[], rev: number): Promise<Manifest | undefined> {
  const level = levelFor(records.length);
  const generation = newGeneration();
  const chunks = new Map<number, SearchRecord[]>();
  for (const record of records) {
    const chunk = chunkOf(record.id, level);
    const held = chunks.get(chunk);
    if (held) held.push(record);
    else chunks.set(chunk, [record]);
  }
  const versions = new Uint32Array(2 ** level);
  await mapConcurrently([...chunks], WRITE_CONCURRENCY, async ([chunk, held]) => {
    await writeSearchChunk(tenantId, list, generation, chunk, held.sort(byKey), 0);
    versions[chunk] = 1;
  });
  const manifest: Manifest = { generation, level, rev, versions };
  if (await writeSearchManifest(tenantId, list, manifest)) return manifest;
  await deleteSearchChunks(tenantId, list, generation, [...chunks.keys()]);
  return undefined;
}

/** The memory the cached tenants may take: a share of the function's (1 GB assumed outside Lambda). */
const defaultBudgetBytes = (): number => Number(process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? 1024) * 1024 * 1024 * CACHE_SHARE;

export interface SearchPageRequest {
  offset?: number;
  limit: number;
  /** Only records after this key (a cursor's position). */
  afterKey?: string;
  /** Only records this keeps (a filter on what the record's view holds, such as a status), applied in memory beside the text. */
  where?: (record: SearchRecord) => boolean;
  /** False: stop at the page's last record rather than count every match (the page's `total` is then partial). */
  count?: boolean;
}

/**
 * The tenants' lists one function holds, least recently searched first. A function has one
 * (`searchList` below); the tests make more to play several functions at once.
 */
export class SearchCache {
  private readonly held = new Map<string, Projection>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly budgetBytes: () => number = defaultBudgetBytes) {}

  /** The lists held now, with their size in records and estimated bytes (for the benchmarks). */
  get holdings(): { key: string; records: number; bytes: number }[] {
    return [...this.held].map(([key, projection]) => ({ key, records: projection.index.size, bytes: projection.bytes }));
  }

  /**
   * A page of the tenant's list matching `query` (every record for undefined), in the
   * list's order, with the number of matches: current as of the moment the search began.
   */
  search(source: SearchSource, tenantId: string, query: SearchQuery | undefined, page: SearchPageRequest): Promise<IndexPage> {
    const key = `${source.list}#${tenantId}`;
    return this.serialized(key, async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const log = await readSearchLog(tenantId, source.list);
        if (!log.manifest) {
          // The list's first search builds its chunks from the entities, read after the log:
          // with the deltas read, they hold every write that committed before the search
          // began. A concurrent build may win: then read again.
          log.manifest = await writeGeneration(tenantId, source.list, await source.readAll(tenantId), 1);
          if (!log.manifest) continue;
        }
        const held = this.held.get(key);
        const projection = held && held.manifest.generation === log.manifest.generation ? held : new Projection(log.manifest);
        if (!(await projection.refresh(tenantId, source.list, log as SearchLog & { manifest: Manifest }))) {
          this.held.delete(key);
          continue;
        }
        this.remember(key, projection);
        const answer = projection.index.page(query, page);
        try {
          await projection.fold(tenantId, source.list, log.deltas);
        } catch (error) {
          logger.warn('search fold failed; the next search tries again', { list: source.list, error: error instanceof Error ? error.message : String(error) });
        }
        return answer;
      }
      throw new Error(`The ${source.list} search log kept changing; try again`);
    });
  }

  /** Forgets every tenant. */
  clear(): void {
    this.held.clear();
  }

  /** One search at a time per tenant and list (the local server runs several requests at once). */
  private serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return run;
  }

  /** Keeps `key` as the most recently used, then lets the least recently used tenants go until the rest fit the budget. */
  private remember(key: string, projection: Projection): void {
    this.held.delete(key);
    this.held.set(key, projection);
    let total = 0;
    for (const held of this.held.values()) total += held.bytes;
    for (const [heldKey, held] of this.held) {
      if (total <= this.budgetBytes() || heldKey === key) break;
      this.held.delete(heldKey);
      total -= held.bytes;
    }
  }
}

const functionCache = new SearchCache();

/** A page of the tenant's list from this function's cache (SearchCache.search). */
export function searchList(source: SearchSource, tenantId: string, query: SearchQuery | undefined, page: SearchPageRequest): Promise<IndexPage> {
  return functionCache.search(source, tenantId, query, page);
}

/**
 * Builds a list's chunks afresh from the entities, as a new generation (the old one's chunks
 * and the deltas it read go): for the bulk loaders and `npm run migrate`. Safe beside live
 * writes: a delta it deletes was read before the entities were, so what they hold is at
 * least as new. False when another build or a fold changed the list meanwhile (it then
 * leaves things as they are, and that list is built anyway).
 */
export async function rebuildSearchList(source: SearchSource, tenantId: string): Promise<boolean> {
  const log = await readSearchLog(tenantId, source.list);
  const records = await source.readAll(tenantId);
  const old = log.manifest;
  if (!(await writeGeneration(tenantId, source.list, records, (old?.rev ?? 0) + 1))) return false;
  await Promise.all([
    old
      ? deleteSearchChunks(
          tenantId,
          source.list,
          old.generation,
          [...old.versions.keys()].filter((chunk) => (old.versions[chunk] as number) > 0),
        )
      : undefined,
    deleteSearchDeltas(
      tenantId,
      source.list,
      log.deltas.map((delta) => delta.sk),
    ),
  ]);
  return true;
}
