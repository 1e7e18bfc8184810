import { describe, expect, it } from 'vitest';
import { prng } from '../../bench/support/prng';
import { compareKeys, OrderedIndex } from '../../lib/search/ordered-index';
import {
  chunkOf,
  decodeChunk,
  decodeRecord,
  encodeChunk,
  encodeRecord,
  later,
  levelFor,
  needsNewLevel,
  RECORDS_PER_CHUNK,
  type SearchRecord,
  type VersionedRecord,
} from '../../lib/search/model';
import { searchQuery } from '../../lib/search/query';

const record = (key: string, words: string, digits = '', id = key): SearchRecord => ({ id, version: 1, key, words, digits, view: JSON.stringify({ id }) });

describe('compareKeys', () => {
  it('orders keys as DynamoDB does (UTF-8 bytes), astral characters included', () => {
    const random = prng(1);
    const alphabet = ['a', 'b', 'z', '#', '$', ' ', 'é', 'ß', '\uE000', '\uFFFD', '😀', '𝒜', '0', '9'];
    const keys = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 5) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
    );
    const bytes = [...keys].sort((left, right) => Buffer.compare(Buffer.from(left), Buffer.from(right)));
    expect([...keys].sort(compareKeys)).toEqual(bytes);
    // Where UTF-16 order disagrees: U+E000 sorts before an astral character in UTF-8.
    expect(compareKeys('\uE000', '😀')).toBeLessThan(0);
    expect('\uE000' < '😀').toBe(false);
  });
});

describe('OrderedIndex order', () => {
  it('keeps DynamoDB order when a key with a character above U+FFFF arrives after others', () => {
    const keys = ['b', '\uE000x', 'a', 'zz', '\uFFFD'];
    const index = OrderedIndex.of(keys.map((key) => record(key, key)));
    index.insert(record('😀', 'emoji'));
    index.insert(record('\uE001', 'private use'));
    const expected = [...keys, '😀', '\uE001'].sort((left, right) => Buffer.compare(Buffer.from(left), Buffer.from(right)));
    expect(index.page(undefined, { limit: 100 }).records.map((entry) => entry.key)).toEqual(expected);
    expect(expected.indexOf('😀')).toBe(expected.length - 1);
  });
});

describe('search records', () => {
  it('round-trip through their stored form, tombstones too', () => {
    const live = record('acme#1', 'acme\u001facme ltda\u001f', '11222333000181\u001f5511987654321', '1');
    expect(decodeRecord(JSON.parse(JSON.stringify(encodeRecord(live))))).toEqual(live);
    expect(decodeRecord(encodeRecord({ id: '2', version: 4, gone: true }))).toEqual({ id: '2', version: 4, gone: true });
    expect(() => decodeRecord({ id: '1' })).toThrow('Malformed search record');
  });

  it('round-trip through a chunk, and refuse a record that holds a separator', () => {
    const records = [
      record('acme#1', 'acme\u001facme ltda\u001f', '11222333000181\u001f', '1'),
      { ...record('b#2', 'b', '', '2'), version: 7, view: JSON.stringify(['line\nbreak', '\u001e', null, true]) },
    ];
    expect(decodeChunk(encodeChunk(records))).toEqual(records);
    expect(decodeChunk(encodeChunk([]))).toEqual([]);
    expect(() => encodeChunk([record('a\nb', 'x')])).toThrow('holds a separator');
  });

  it('keep the later version of an id', () => {
    const first: VersionedRecord = { ...record('a', 'a'), version: 1 };
    const gone: VersionedRecord = { id: 'a', version: 2, gone: true };
    expect(later<VersionedRecord>(first, gone)).toBe(gone);
    expect(later<VersionedRecord>(gone, first)).toBe(gone);
    expect(later(undefined, first)).toBe(first);
  });

  it('spread ids evenly over the chunks of a level, each id always in the same chunk', () => {
    const ids = Array.from({ length: 16_384 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    const counts = new Array<number>(64).fill(0);
    for (const id of ids) counts[chunkOf(id, 6)] = (counts[chunkOf(id, 6)] ?? 0) + 1;
    expect(Math.min(...counts)).toBeGreaterThan(256 * 0.7);
    expect(Math.max(...counts)).toBeLessThan(256 * 1.3);
    expect(chunkOf(ids[5] as string, 6)).toBe(chunkOf(ids[5] as string, 6));
    expect(chunkOf(ids[5] as string, 0)).toBe(0);
  });

  it('choose a level of about RECORDS_PER_CHUNK per chunk, and a new one when the tenant grows past twice that or shrinks under a quarter', () => {
    expect([0, 1, 128, 129, 256, 257, 100_000].map(levelFor)).toEqual([0, 0, 0, 1, 1, 2, 10]);
    expect(needsNewLevel(RECORDS_PER_CHUNK * 2 * 8, 3)).toBe(false);
    expect(needsNewLevel(RECORDS_PER_CHUNK * 2 * 8 + 1, 3)).toBe(true);
    expect(needsNewLevel((RECORDS_PER_CHUNK / 4) * 8, 3)).toBe(false);
    expect(needsNewLevel((RECORDS_PER_CHUNK / 4) * 8 - 1, 3)).toBe(true);
    expect(needsNewLevel(0, 0)).toBe(false);
  });
});

describe('OrderedIndex', () => {
  /** The brute force the index must agree with: every record, sorted, filtered per field. */
  const expected = (records: SearchRecord[], term: string | undefined, afterKey?: string) => {
    const query = term === undefined ? undefined : searchQuery(term);
    return [...records]
      .sort((left, right) => compareKeys(left.key, right.key))
      .filter((entry) => afterKey === undefined || compareKeys(entry.key, afterKey) > 0)
      .filter(
        (entry) =>
          !query ||
          entry.words.split('\u001f').some((field) => field.includes(query.text)) ||
          (query.compact !== '' && entry.digits.split('\u001f').some((field) => field.includes(query.compact))),
      )
      .map((entry) => entry.id);
  };

  it('pages and counts exactly what a brute-force filter finds, through thousands of inserts and removals across segments', () => {
    const random = prng(2);
    const words = ['acme', 'silva', 'sao paulo', 'comercio', 'ltda', 'x@y.com', ''];
    const make = (index: number) =>
      record(
        `${words[Math.floor(random() * words.length)]} ${Math.floor(random() * 1e6)}#${index}`,
        [words[Math.floor(random() * words.length)], words[Math.floor(random() * words.length)]].join('\u001f'),
        `${Math.floor(random() * 1e8)}\u001f55119${index}`,
        String(index),
      );
    let records = Array.from({ length: 3_000 }, (_, index) => make(index));
    const index = OrderedIndex.of(records);
    for (let step = 0; step < 3_000; step += 1) {
      if (random() < 0.6) {
        const added = make(3_000 + step);
        index.insert(added);
        records.push(added);
      } else {
        const removed = records[Math.floor(random() * records.length)] as SearchRecord;
        expect(index.remove(removed.key)).toBe(true);
        records = records.filter((entry) => entry !== removed);
      }
    }
    expect(index.size).toBe(records.length);
    expect(index.remove('not there')).toBe(false);
    for (const term of [undefined, 'acme', 'sao', 'ltda', 'x@', '5511', '1', '@y.c', 'zzz', 'a']) {
      const all = expected(records, term);
      const query = term === undefined ? undefined : searchQuery(term);
      expect(index.page(query, { limit: 1_000_000 }), String(term)).toEqual({ records: expect.any(Array), total: all.length });
      expect(
        index.page(query, { limit: 1_000_000 }).records.map((entry) => entry.id),
        String(term),
      ).toEqual(all);
      expect(
        index.page(query, { offset: 7, limit: 5 }).records.map((entry) => entry.id),
        String(term),
      ).toEqual(all.slice(7, 12));
      const after = all[Math.floor(all.length / 2)];
      if (after !== undefined) {
        const afterKey = (records.find((entry) => entry.id === after) as SearchRecord).key;
        expect(
          index.page(query, { afterKey, limit: 10 }).records.map((entry) => entry.id),
          String(term),
        ).toEqual(expected(records, term, afterKey).slice(0, 10));
      }
    }
  });

  it('keeps only the records a `where` keeps, in the same order, counted and paged among themselves', () => {
    const records = Array.from({ length: 600 }, (_, index) =>
      record(`k${String(index).padStart(4, '0')}#${index}`, index % 7 === 0 ? 'rare' : 'common', '', String(index)),
    );
    const index = OrderedIndex.of(records);
    const where = (entry: SearchRecord) => entry.words === 'rare';
    const rare = records.filter(where).map((entry) => entry.id);
    expect(index.page(undefined, { limit: 1_000, where }).total).toBe(rare.length);
    expect(index.page(searchQuery('r'), { limit: 10, where }).records.map((entry) => entry.id)).toEqual(rare.slice(0, 10));
    expect(index.page(searchQuery('r'), { limit: 10, offset: 5, where }).records.map((entry) => entry.id)).toEqual(rare.slice(5, 15));
    const afterKey = (records[300] as SearchRecord).key;
    expect(index.page(undefined, { limit: 3, afterKey, where }).records.map((entry) => entry.id)).toEqual(['301', '308', '315']);
    expect(index.page(searchQuery('common'), { limit: 10, where }).total).toBe(0);
    // Without counting, the walk stops once the page is full: the same page, a partial total.
    const calls: string[] = [];
    const counted = (entry: SearchRecord) => (calls.push(entry.id), where(entry));
    const page = index.page(undefined, { limit: 3, where: counted, count: false });
    expect(page.records.map((entry) => entry.id)).toEqual(rare.slice(0, 3));
    expect(page.total).toBe(3);
    expect(calls).toHaveLength(15);
  });

  it('never matches a query across two fields or two records', () => {
    const index = OrderedIndex.of([record('a#1', 'abc\u001fdef', '123\u001f456', '1'), record('b#2', 'ghi', '789', '2')]);
    expect(index.page(searchQuery('cd'), { limit: 10 }).total).toBe(0);
    expect(index.page(searchQuery('34'), { limit: 10 }).total).toBe(0);
    expect(index.page(searchQuery('fg'), { limit: 10 }).total).toBe(0);
    expect(index.page(searchQuery('97'), { limit: 10 }).total).toBe(0);
    expect(index.page(searchQuery('def'), { limit: 10 }).records.map((entry) => entry.id)).toEqual(['1']);
    expect(index.page(searchQuery('7-8'), { limit: 10 }).records.map((entry) => entry.id)).toEqual(['2']);
  });
});
