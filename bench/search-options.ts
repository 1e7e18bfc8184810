/**
 * Supplier search, two designs measured side by side on DynamoDB Local (one run, same data):
 *
 * - (a) a word-prefix inverted index with exact per-prefix counters: for each distinct
 *   prefix P (1..20 characters) of each distinct word of a supplier, a posting item
 *   (`TENANT#t#SP#<P>`, sk `<sortName>#<id>`, `id` only) and a counter (`TENANT#t#SPC`, sk
 *   `<P>`, `n`). One-word search: Query of the word's postings (Limit offset + limit) and
 *   GetItem of its counter, in parallel, then the page's full items. Multi-word: BatchGet of
 *   the counters, Query of the rarest word's postings in full (those carry the haystack,
 *   partition `TENANT#t#SPH#<P>`), filtered by the other words;
 * - (b) today's substring scan of the compact supplier index (`searchSupplierPage`).
 *
 * 100,000 suppliers of generated Brazilian data are bulk-loaded with the items
 * `bulkInsertSuppliers` writes (option b and every page's full items). Option (a)'s write
 * amplification is computed exactly for all 100,000 in memory; the posting partitions and
 * counters the test queries read are loaded complete for all 100,000 (so their read cost is
 * the 100,000-supplier cost); every prefix of every supplier is loaded only for as many
 * suppliers as POSTING_BUDGET_SECONDS allows, to measure the load rate.
 *
 * Run: npx tsx bench/search-options.ts (writes a JSON summary to stdout's last line).
 */
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db/client';
import { keys } from '../lib/db/keys';
import { putAll } from '../lib/db/bulk';
import { bulkInsertSuppliers, searchSupplierPage } from '../lib/suppliers/repository';
import { getMany } from '../lib/db/batch';
import { normalizeText, searchHaystack, sortName, supplierMatcher } from '../lib/suppliers/search';
import type { Supplier } from '../lib/suppliers/model';
import { itemSize, measureCapacity } from './support/capacity';
import { cnpj, formatCnpj, generateSuppliers, SURNAMES } from './support/brazilian-suppliers';
import { benchTenant } from './support/principal';
import { benchStore } from './support/store';

const SUPPLIERS = Number(process.env.SUPPLIERS ?? 100_000);
/** Wall time allowed for loading every prefix of the first suppliers (the load-rate sample). */
const POSTING_BUDGET_SECONDS = Number(process.env.POSTING_BUDGET_SECONDS ?? 300);
const RATE_SAMPLE_ITEMS = 50_000;
const MAX_PREFIX = 20;
const RUNS = 5;
const FIELD_SEPARATOR = '\u001f';

const log = (line: string): void => {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
};

// ---------------------------------------------------------------------------------------
// Option (a): words, prefixes, items

/** A supplier's words, from its search haystack: text fields split on anything not [0-9a-z], the document as one word, the phone as three. */
function haystackWords(haystack: string): Set<string> {
  const [name = '', corporate = '', mail = '', document = '', phoneDigits = ''] = haystack.split(FIELD_SEPARATOR);
  const words = new Set<string>();
  for (const text of [name, corporate, mail]) for (const word of text.split(/[^0-9a-z]+/)) if (word !== '') words.add(word);
  const documentWord = document.replace(/[^0-9a-z]/g, '');
  if (documentWord !== '') words.add(documentWord);
  if (phoneDigits !== '') {
    words.add(phoneDigits);
    if (phoneDigits.startsWith('55') && phoneDigits.length > 4) {
      words.add(phoneDigits.slice(2));
      words.add(phoneDigits.slice(4));
    }
  }
  return words;
}

/** Every distinct prefix (1..MAX_PREFIX characters) of the words. */
function prefixesOf(words: Iterable<string>): Set<string> {
  const prefixes = new Set<string>();
  for (const word of words) {
    const characters = Array.from(word);
    for (let length = 1; length <= Math.min(MAX_PREFIX, characters.length); length += 1) prefixes.add(characters.slice(0, length).join(''));
  }
  return prefixes;
}

/**
 * A query's words: a whitespace-separated token with a letter splits on anything not
 * [0-9a-z]; a token without one (a document, a phone fragment) is its digits, one word.
 * Longer than MAX_PREFIX, a word is cut (a real implementation would filter the rest).
 */
function queryWords(query: string): string[] {
  const words = new Set<string>();
  for (const token of normalizeText(query).split(' ')) {
    if (/[a-z]/.test(token)) {
      for (const word of token.split(/[^0-9a-z]+/)) if (word !== '') words.add(word);
    } else if (token.replace(/[^0-9]/g, '') !== '') {
      words.add(token.replace(/[^0-9]/g, ''));
    }
  }
  return [...words].map((word) => Array.from(word).slice(0, MAX_PREFIX).join(''));
}

const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;
const postingPk = (tenantId: string, prefix: string) => `${tenantPk(tenantId)}#SP#${prefix}`;
/** The multi-word variant's postings: the same, plus the haystack to filter by the other words. */
const fatPostingPk = (tenantId: string, prefix: string) => `${tenantPk(tenantId)}#SPH#${prefix}`;
const counterPk = (tenantId: string) => `${tenantPk(tenantId)}#SPC`;

const postingItem = (tenantId: string, prefix: string, supplier: Supplier) => ({
  pk: postingPk(tenantId, prefix),
  sk: `${sortName(supplier.name)}#${supplier.id}`,
  id: supplier.id,
});
const fatPostingItem = (tenantId: string, prefix: string, supplier: Supplier) => ({
  pk: fatPostingPk(tenantId, prefix),
  sk: `${sortName(supplier.name)}#${supplier.id}`,
  id: supplier.id,
  search: searchHaystack(supplier),
});
const counterItem = (tenantId: string, prefix: string, n: number) => ({ pk: counterPk(tenantId), sk: prefix, n });
const indexItem = (tenantId: string, supplier: Supplier) => ({
  ...keys.supplierIndexEntry(tenantId, sortName(supplier.name), supplier.id),
  id: supplier.id,
  search: searchHaystack(supplier),
});

interface PageResult {
  ids: string[];
  total: number;
  suppliersRead: number;
}

/** Read a partition's items in key order until `wanted` items (or all of them when undefined). */
async function queryPartition(pk: string, projection: string[], wanted?: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ExpressionAttributeNames: Object.fromEntries(projection.map((name) => [`#${name}`, name])),
        ProjectionExpression: projection.map((name) => `#${name}`).join(', '),
        ConsistentRead: true,
        ...(wanted === undefined ? {} : { Limit: Math.min(wanted - items.length, 10_000) }),
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && (wanted === undefined || items.length < wanted));
  return items;
}

/** Option (a): a page of the suppliers every query word is a word-prefix of, with the exact total. */
async function prefixSearchPage(tenantId: string, query: string, offset: number, limit: number): Promise<PageResult> {
  const words = queryWords(query);
  let ids: string[];
  let total: number;
  if (words.length === 1) {
    const word = words[0] as string;
    const [postings, counter] = await Promise.all([
      queryPartition(postingPk(tenantId, word), ['id'], offset + limit),
      db().send(new GetCommand({ TableName: tableName(), Key: { pk: counterPk(tenantId), sk: word }, ConsistentRead: true })),
    ]);
    ids = postings.slice(offset, offset + limit).map((item) => String(item.id));
    total = Number(counter.Item?.n ?? 0);
  } else {
    const counters = await db().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: words.map((sk) => ({ pk: counterPk(tenantId), sk })), ConsistentRead: true } } }),
    );
    const counts = new Map((counters.Responses?.[tableName()] ?? []).map((item) => [String(item.sk), Number(item.n)]));
    const rarest = [...words].sort((left, right) => (counts.get(left) ?? 0) - (counts.get(right) ?? 0))[0] as string;
    const matching: string[] = [];
    if ((counts.get(rarest) ?? 0) > 0) {
      const others = words.filter((word) => word !== rarest);
      for (const item of await queryPartition(fatPostingPk(tenantId, rarest), ['id', 'search'])) {
        const supplierWords = [...haystackWords(String(item.search))];
        if (others.every((word) => supplierWords.some((candidate) => candidate.startsWith(word)))) matching.push(String(item.id));
      }
    }
    ids = matching.slice(offset, offset + limit);
    total = matching.length;
  }
  const suppliers = ids.length === 0 ? [] : await getMany(ids.map((id) => keys.supplier(tenantId, id)));
  return { ids, total, suppliersRead: suppliers.filter((item) => item !== undefined).length };
}

/** Option (b): today's repository call. */
async function substringSearchPage(tenantId: string, query: string, offset: number, limit: number): Promise<PageResult> {
  const matcher = supplierMatcher(query);
  if (!matcher) throw new Error('blank query');
  const page = await searchSupplierPage(tenantId, matcher, offset, limit);
  return { ids: page.suppliers.map((supplier) => supplier.id), total: page.total, suppliersRead: page.suppliers.length };
}

// ---------------------------------------------------------------------------------------
// Measurement helpers

const percentile = (values: number[], fraction: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
};

interface Measured {
  capacityUnits: number;
  requests: number;
  commands: string[];
  p50Ms: number;
  total: number;
  returned: number;
}

async function measureSearch(run: () => Promise<PageResult>): Promise<Measured> {
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof measureCapacity<PageResult>>> | undefined;
  for (let attempt = 0; attempt < RUNS; attempt += 1) {
    const start = performance.now();
    last = await measureCapacity(run);
    times.push(performance.now() - start);
  }
  if (!last) throw new Error('no run');
  return {
    capacityUnits: Math.round(last.capacityUnits * 10) / 10,
    requests: last.requests,
    commands: last.commands,
    p50Ms: Math.round(percentile(times, 0.5)),
    total: last.result.total,
    returned: last.result.suppliersRead,
  };
}

const sumSizes = (items: Iterable<Record<string, unknown>>): number => {
  let bytes = 0;
  for (const item of items) bytes += itemSize(item);
  return bytes;
};

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 1000);
  const store = await benchStore();
  const { tenantId } = await benchTenant('search-options');
  const summary: Record<string, unknown> = { suppliers: SUPPLIERS, startedAt: new Date().toISOString() };
  try {
    log(`generating ${SUPPLIERS} suppliers ...`);
    const suppliers = generateSuppliers(SUPPLIERS);
    // Recomputed when needed: holding ~100 prefixes for each of 100,000 suppliers costs more memory than time.
    const prefixesAt = (index: number): Set<string> => prefixesOf(haystackWords(searchHaystack(suppliers[index] as Supplier)));

    // 1. Write amplification, exact for every supplier (computed, nothing estimated).
    const perSupplier: number[] = [];
    const counts = new Map<string, number>();
    let postingBytes = 0;
    suppliers.forEach((supplier, index) => {
      const prefixes = prefixesAt(index);
      perSupplier.push(prefixes.size);
      for (const prefix of prefixes) {
        counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
        postingBytes += itemSize(postingItem(tenantId, prefix, supplier));
      }
    });
    let counterBytes = 0;
    for (const [prefix, n] of counts) counterBytes += itemSize(counterItem(tenantId, prefix, n));
    const postings = perSupplier.reduce((sum, size) => sum + size, 0);
    const indexBytes = sumSizes(suppliers.map((supplier) => indexItem(tenantId, supplier)));
    const fits = perSupplier.filter((size) => 4 + 2 * size <= 100).length;
    const amplification = {
      prefixesPerSupplier: {
        mean: Math.round((postings / SUPPLIERS) * 10) / 10,
        p50: percentile(perSupplier, 0.5),
        p95: percentile(perSupplier, 0.95),
        max: perSupplier.reduce((a, b) => Math.max(a, b), 0),
        min: perSupplier.reduce((a, b) => Math.min(a, b), Infinity),
      },
      postingItems: postings,
      postingBytes,
      counterItems: counts.size,
      counterBytes,
      compactIndexItems: SUPPLIERS,
      compactIndexBytes: indexBytes,
      meanPostingItemBytes: Math.round(postingBytes / postings),
      meanIndexItemBytes: Math.round(indexBytes / SUPPLIERS),
      createItems: {
        mean: Math.round((4 + (2 * postings) / SUPPLIERS) * 10) / 10,
        p95: 4 + 2 * percentile(perSupplier, 0.95),
        max: 4 + 2 * perSupplier.reduce((a, b) => Math.max(a, b), 0),
      },
      createsFittingOneTransaction: fits,
    };
    summary.amplification = amplification;
    log(`amplification: ${JSON.stringify(amplification)}`);

    // 5. Hot counters: which of a "Comércio X Ltda" create's counters (almost) every create touches.
    const sample: Supplier = {
      id: randomUUID(),
      name: 'Comércio X Ltda',
      corporateName: 'Comércio X Ltda',
      document: cnpj(SUPPLIERS + 1),
      email: 'contato@comercioxltda.com.br',
      phone: '+5511987654321',
      active: true,
      createdAt: '',
      updatedAt: '',
    };
    const samplePrefixes = [...prefixesOf(haystackWords(searchHaystack(sample)))];
    const share = (prefix: string) => (counts.get(prefix) ?? 0) / SUPPLIERS;
    const hot = {
      sampleCounters: samplePrefixes.length,
      touchedByEveryCreate: samplePrefixes.filter((prefix) => share(prefix) === 1).sort(),
      touchedByAtLeast90: samplePrefixes.filter((prefix) => share(prefix) >= 0.9).sort(),
      touchedByAtLeast50: samplePrefixes.filter((prefix) => share(prefix) >= 0.5).sort(),
      touchedByAtLeast10: samplePrefixes.filter((prefix) => share(prefix) >= 0.1).length,
      shares: Object.fromEntries(samplePrefixes.filter((prefix) => share(prefix) >= 0.5).map((prefix) => [prefix, Math.round(share(prefix) * 1000) / 1000])),
    };
    summary.hotCounters = hot;
    log(`hot counters: ${JSON.stringify(hot)}`);

    // The compact index, full items and document sentinels for every supplier (option b, and every page's full items).
    log('loading the 100,000 suppliers as bulkInsertSuppliers writes them (3 items each) ...');
    let loadStart = performance.now();
    await bulkInsertSuppliers(tenantId, suppliers, (written) => {
      if (written % 20_000 < 9) log(`  ${written} suppliers`);
    });
    summary.baselineLoad = { items: SUPPLIERS * 3, seconds: Math.round((performance.now() - loadStart) / 1000) };
    log(`  done in ${JSON.stringify(summary.baselineLoad)}`);

    // Every prefix of the first suppliers, in order, for as long as the budget allows (load rate).
    log(`loading every posting + counter of the first suppliers (budget ${POSTING_BUDGET_SECONDS} s) ...`);
    loadStart = performance.now();
    let loadedSuppliers = 0;
    let loadedItems = 0;
    let rate = 0;
    let target = SUPPLIERS;
    const partialCounts = new Map<string, number>();
    while (loadedSuppliers < target) {
      const batch: Record<string, unknown>[] = [];
      while (loadedSuppliers < target && batch.length < 10_000) {
        const supplier = suppliers[loadedSuppliers] as Supplier;
        for (const prefix of prefixesAt(loadedSuppliers)) {
          batch.push(postingItem(tenantId, prefix, supplier));
          partialCounts.set(prefix, (partialCounts.get(prefix) ?? 0) + 1);
        }
        loadedSuppliers += 1;
      }
      await putAll(batch);
      loadedItems += batch.length;
      const elapsed = (performance.now() - loadStart) / 1000;
      if (rate === 0 && loadedItems >= RATE_SAMPLE_ITEMS) {
        rate = loadedItems / elapsed;
        const perSupplierItems = postings / SUPPLIERS;
        // Postings plus counters for the remaining suppliers (a counter item per new prefix, about as many as postings at this scale).
        const affordable = Math.floor((POSTING_BUDGET_SECONDS * rate * 0.85) / perSupplierItems / 1.35);
        target = Math.max(loadedSuppliers, Math.min(SUPPLIERS, affordable));
        log(`  rate ${Math.round(rate)} items/s over the first ${loadedItems} items; loading every prefix for ${target} suppliers`);
      }
    }
    const partialCounters = [...partialCounts].map(([prefix, n]) => counterItem(tenantId, prefix, n));
    await putAll(partialCounters);
    const partialSeconds = (performance.now() - loadStart) / 1000;
    summary.fullPrefixLoad = {
      suppliers: loadedSuppliers,
      postingItems: loadedItems,
      counterItems: partialCounters.length,
      seconds: Math.round(partialSeconds),
      sampleRateItemsPerSecond: Math.round(rate),
      overallRateItemsPerSecond: Math.round((loadedItems + partialCounters.length) / partialSeconds),
      extrapolatedSecondsFor100k: Math.round((postings + counts.size) / ((loadedItems + partialCounters.length) / partialSeconds)),
    };
    log(`  ${JSON.stringify(summary.fullPrefixLoad)}`);

    // The test queries.
    const rareSurname = [...SURNAMES]
      .map((name) => normalizeText(name))
      .filter((word) => (counts.get(word) ?? 0) >= 3)
      .sort((left, right) => (counts.get(left) ?? 0) - (counts.get(right) ?? 0))[0] as string;
    const documentSupplier = suppliers[Math.floor(SUPPLIERS / 2)] as Supplier;
    const phoneSupplier = suppliers.find((supplier, index) => index > SUPPLIERS / 3 && supplier.phone !== null) as Supplier;
    const localNumber = (phoneSupplier.phone as string).slice(-9);
    const queries: { label: string; query: string; offset: number }[] = [
      { label: 'no supplier has it', query: 'zzzz', offset: 0 },
      { label: 'very common word, page 1', query: 'ltda', offset: 0 },
      { label: 'very common word, deep page (offset 9,990)', query: 'ltda', offset: 9_990 },
      { label: 'common prefix', query: 'dis', offset: 0 },
      { label: `rare surname`, query: rareSurname, offset: 0 },
      { label: 'full CNPJ with punctuation', query: formatCnpj(documentSupplier.document), offset: 0 },
      { label: 'phone fragment', query: `${localNumber.slice(0, 5)}-${localNumber.slice(5)}`, offset: 0 },
      { label: 'two words, common + common', query: 'distribuidora silva', offset: 0 },
      { label: 'three words', query: 'alimentos sao paulo', offset: 0 },
    ];

    // The partitions the test queries read, complete for all 100,000 suppliers, and their exact counters.
    log("loading the test queries' posting partitions for all suppliers ...");
    loadStart = performance.now();
    const testPrefixes = new Set<string>();
    const fatPrefixes = new Set<string>();
    for (const { query } of queries) {
      const words = queryWords(query);
      words.forEach((word) => testPrefixes.add(word));
      if (words.length > 1) fatPrefixes.add([...words].sort((left, right) => (counts.get(left) ?? 0) - (counts.get(right) ?? 0))[0] as string);
    }
    const testItems: Record<string, unknown>[] = [];
    suppliers.forEach((supplier, index) => {
      const prefixes = prefixesAt(index);
      for (const prefix of testPrefixes) if (prefixes.has(prefix)) testItems.push(postingItem(tenantId, prefix, supplier));
      for (const prefix of fatPrefixes) if (prefixes.has(prefix)) testItems.push(fatPostingItem(tenantId, prefix, supplier));
    });
    for (const prefix of testPrefixes) if (counts.has(prefix)) testItems.push(counterItem(tenantId, prefix, counts.get(prefix) as number));
    await putAll(testItems);
    summary.testPartitions = {
      items: testItems.length,
      seconds: Math.round((performance.now() - loadStart) / 1000),
      counts: Object.fromEntries([...testPrefixes].map((prefix) => [prefix, counts.get(prefix) ?? 0])),
      haystackPartitions: [...fatPrefixes],
    };
    log(`  ${JSON.stringify(summary.testPartitions)}`);

    // 3 and 4. Searches, both options, same data.
    const results: Record<string, unknown>[] = [];
    for (const { label, query, offset } of queries) {
      const prefix = await measureSearch(() => prefixSearchPage(tenantId, query, offset, 10));
      const substring = await measureSearch(() => substringSearchPage(tenantId, query, offset, 10));
      results.push({ label, query, offset, words: queryWords(query), prefix, substring });
      log(`search ${label} (${JSON.stringify(query)}, offset ${offset}): (a) ${JSON.stringify(prefix)} | (b) ${JSON.stringify(substring)}`);
    }
    summary.searches = results;
    summary.runSeconds = seconds();
    log(`done in ${seconds()} s`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
