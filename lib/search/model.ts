/**
 * What the in-memory search holds per entity, pure. A record is one version of one entity:
 * its sort key (the order of the list it searches), the normalized text a query matches, and
 * the view a page shows, already serialized. A tombstone is the version that deleted it.
 * The store (lib/search/repository.ts) keeps records in compressed chunks and in a log
 * of the writes since; of all the versions of one id, the highest wins, so applying them in
 * any order gives the same result.
 */
/** Separates the fields of `words` and of `digits`: a control character no normalized text or query holds. */
export const FIELD_SEPARATOR = '\u001f';

export interface SearchRecord {
  id: string;
  /** The entity's version: 1 when created, one more per change. */
  version: number;
  /** Its place in the list (the listing's own sort key); unique, since it ends with the id or is the unique SKU. */
  key: string;
  /** Normalized text fields, joined by FIELD_SEPARATOR: a query's text must be a substring of one. */
  words: string;
  /** `[0-9a-z]` fields (document, phone digits), joined by FIELD_SEPARATOR: a query's compact form must be a substring of one. */
  digits: string;
  /** The entity as a page shows it, as JSON. */
  view: string;
}

export interface Tombstone {
  id: string;
  version: number;
  gone: true;
}

export type VersionedRecord = SearchRecord | Tombstone;

export const isTombstone = (record: VersionedRecord): record is Tombstone => 'gone' in record;

/** The later of two versions of one id (either may be missing). */
export function later<T extends VersionedRecord>(left: T | undefined, right: T | undefined): T | undefined {
  if (!left) return right;
  if (!right) return left;
  return right.version > left.version ? right : left;
}

/** A query as the index matches it; undefined for a blank one (no search). */
export interface SearchQuery {
  /** The normalized query: matched against `words`. */
  text: string;
  /** The query reduced to `[0-9a-z]`: matched against `digits` when not empty. */
  compact: string;
}

/** Stored form of a record: a JSON array, short, in the order the decoder reads it. */
export function encodeRecord(record: VersionedRecord): unknown[] {
  return isTombstone(record) ? [record.id, record.version] : [record.id, record.version, record.key, record.words, record.digits, record.view];
}

export function decodeRecord(value: unknown): VersionedRecord {
  if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'number') throw new Error('Malformed search record');
  const [id, version, key, words, digits, view] = value as [string, number, string?, string?, string?, string?];
  if (key === undefined) return { id, version, gone: true };
  return { id, version, key, words: words ?? '', digits: digits ?? '', view: view ?? '{}' };
}

/** Separates a chunk's records, and a record's fields, in its stored text. */
const RECORD_SEPARATOR = '\n';
const CHUNK_FIELD_SEPARATOR = '\u001e';

/**
 * A chunk's records as stored: one line per record, fields separated by a control
 * character. None can hold one: ids are UUIDs, keys and words are normalized text (which
 * turns every control character into a space) or a validated SKU, digits are `[0-9a-z]`, and
 * the view is JSON text, which escapes them. Parsing it took about a sixth less time than
 * JSON of the same records (measured at 100,000 suppliers, where parsing is a quarter of a
 * cold load).
 */
export function encodeChunk(records: SearchRecord[]): string {
  return records
    .map((record) => {
      const fields = [record.id, String(record.version), record.key, record.words, record.digits, record.view];
      if (fields.some((field) => field.includes(RECORD_SEPARATOR) || field.includes(CHUNK_FIELD_SEPARATOR)))
        throw new Error(`Search record ${record.id} holds a separator`);
      return fields.join(CHUNK_FIELD_SEPARATOR);
    })
    .join(RECORD_SEPARATOR);
}

export function decodeChunk(text: string): SearchRecord[] {
  if (text === '') return [];
  return text.split(RECORD_SEPARATOR).map((line) => {
    const [id = '', version = '', key = '', words = '', digits = '', view = ''] = line.split(CHUNK_FIELD_SEPARATOR);
    return { id, version: Number(version), key, words, digits, view };
  });
}

/**
 * Which of the 2^level chunks holds an id: the top `level` bits of its FNV-1a hash, mixed
 * by MurmurHash3's finalizer (FNV's top bits alone cluster sequential ids), so ids spread
 * evenly whatever their form, and a chunk is the same for every version of one id.
 */
export function chunkOf(id: string, level: number): number {
  if (level === 0) return 0;
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) >>> (32 - level);
}

/**
 * Records per chunk the levels aim at: about 11 KB compressed for suppliers. Fewer, larger
 * chunks load faster cold (2,048 of 64 took a third longer than 1,024 of 128 at 100,000
 * suppliers); smaller ones make a fold rewrite less (docs/decisions.md, "Search").
 */
export const RECORDS_PER_CHUNK = 128;
export const MAX_LEVEL = 16;

/** The level that gives `count` records about RECORDS_PER_CHUNK per chunk. */
export function levelFor(count: number): number {
  let level = 0;
  while (level < MAX_LEVEL && count > RECORDS_PER_CHUNK * 2 ** level) level += 1;
  return level;
}

/** Whether a tenant of `count` records has outgrown (or shrunk well below) `level`: more than twice, or under a quarter, the aim. */
export function needsNewLevel(count: number, level: number): boolean {
  const perChunk = count / 2 ** level;
  return (perChunk > RECORDS_PER_CHUNK * 2 && level < MAX_LEVEL) || (level > 0 && perChunk < RECORDS_PER_CHUNK / 4);
}
