/**
 * The in-memory search (lib/search/engine) at 100,000 suppliers and 20,000 products, part of
 * `npm run bench -- scale`, against the strongest baseline in the same run: the full scan of
 * the compact index (suppliers) or of the SKU sentinels (products), which is what a search
 * without the engine reads.
 *
 * Targets: a warm search at most 10 read units and 50 ms in the handler, for a term nobody
 * has and for one everybody has; the first search on a cold function within 1 s; a create,
 * rename or delete at most twice its write units without the search (its transaction less
 * the delta, plus its share of the fold that later writes the delta into its chunk).
 * Memory is measured (heap after a collection, before and after a cold load) and stated.
 * Last, random creates, renames and deletes, in parallel, then random terms: the engine's
 * answer must be the full scan's, id for id.
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Principal } from '../lib/auth/principal';
import { keys } from '../lib/db/keys';
import { queryAll } from '../lib/db/query';
import { putAll } from '../lib/db/bulk';
import { productSearchSource } from '../lib/inventory/product-repository';
import { readSearchLog } from '../lib/search/repository';
import { findSupplier, searchSupplierPage, supplierSearchSource } from '../lib/suppliers/repository';
import { supplierMatcher } from '../lib/suppliers/search';
import { INVENTORY_ITEMS } from '../lib/db/item-types';
import { mapConcurrently } from '../lib/domain/concurrency';
import { NotFound } from '../lib/errors';
import { createProduct, listProducts } from '../lib/inventory/service';
import { FOLD_AT, rebuildSearchList, SearchCache } from '../lib/search/engine';
import { searchQuery } from '../lib/search/query';
import type { Supplier } from '../lib/suppliers/model';
import { createSupplier, deleteSupplier, listSuppliers, updateSupplier } from '../lib/suppliers/service';
import { formatCnpj, generateSuppliers } from './support/brazilian-suppliers';
import { measureCapacity } from './support/capacity';
import { cnpjWithCheckDigits } from './support/documents';
import { median } from './cold-start';
import { benchTenant } from './support/principal';

export interface SearchFigure {
  name: string;
  measured: string;
  baseline: string;
  /** measured / baseline, when both are the same unit. */
  ratio: number | null;
  target: string;
  met: boolean | null;
}

const WARM_RUNS = 7;
const NOBODY = 'zzqx';

setFlagsFromString('--expose_gc');
const collect = runInNewContext('gc') as () => void;
const heapMb = (): number => {
  collect();
  collect();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

/** Time and capacity of one call. */
async function measured<T>(work: () => Promise<T>) {
  const start = performance.now();
  const result = await measureCapacity(work);
  return { ...result, ms: performance.now() - start };
}

/** The median time of WARM_RUNS calls, and the capacity of the last (they are all alike). */
async function warm<T>(work: () => Promise<T>) {
  const runs = [];
  for (let run = 0; run < WARM_RUNS; run += 1) runs.push(await measured(work));
  const last = runs.at(-1) as (typeof runs)[number];
  return { ...last, ms: median(runs.map((entry) => entry.ms)) };
}

const cost = (entry: { readUnits: number; writeUnits: number; requests: number; ms: number }) =>
  `${round(entry.readUnits)} RCU${entry.writeUnits ? ` + ${round(entry.writeUnits)} WCU` : ''}, ${entry.requests} req, ${Math.round(entry.ms)} ms`;

/**
 * Fails unless the tenant's list has its chunks (a manifest): a search finding none reads
 * every entity's own items and builds them instead, which is not the cold load measured.
 */
async function expectChunks(tenantId: string, list: 'suppliers' | 'products'): Promise<void> {
  if (!(await readSearchLog(tenantId, list)).manifest)
    throw new Error(`search: the ${list} of tenant ${tenantId} have no chunks; a first search would build them from the entities`);
}

/**
 * Fails unless a warm search read the log alone (one Query): a warm function holds every
 * chunk, so more requests mean it fetched chunks or built them, not the warm path measured.
 */
function expectWarm(name: string, search: { commands: string[] }): void {
  if (search.commands.join() !== 'QueryCommand')
    throw new Error(`search: the ${name} made ${search.commands.join(' + ') || 'no request'}, not the warm path's one Query of the log`);
}

/**
 * The supplier figures on `principal`'s tenant of `count` suppliers (bulk-loaded, its
 * search chunks not built yet): `everybody` is a term every one of them has.
 */
export async function supplierSearchFigures(principal: Principal, count: number, everybody: string, log: (line: string) => void): Promise<SearchFigure[]> {
  const { tenantId } = principal;
  const figures: SearchFigure[] = [];
  const label = count.toLocaleString('en');
  const buildStart = performance.now();
  if (!(await rebuildSearchList(supplierSearchSource, tenantId))) throw new Error('the supplier chunks changed during their build');
  const manifest = (await readSearchLog(tenantId, 'suppliers')).manifest;
  log(
    `search: chunks of ${label} suppliers built in ${Math.round(performance.now() - buildStart)} ms (level ${manifest?.level}, ${manifest?.versions.length} chunks)`,
  );

  // The baseline: the full scan of the compact index, what a search read before the engine.
  const scans = {
    nobody: await measured(() => searchSupplierPage(tenantId, supplierMatcher(NOBODY) as (haystack: string) => boolean, 0, 10)),
    everybody: await measured(() => searchSupplierPage(tenantId, supplierMatcher(everybody) as (haystack: string) => boolean, 0, 10)),
  };
  if (scans.everybody.result.total !== count) throw new Error(`"${everybody}" matched ${scans.everybody.result.total} of ${count} in the full scan`);

  // A cold function's first search: its own cache, nothing held; the heap it then holds.
  await expectChunks(tenantId, 'suppliers');
  const before = heapMb();
  const fresh = new SearchCache();
  const cold = await measured(() => fresh.search(supplierSearchSource, tenantId, searchQuery(NOBODY), { offset: 0, limit: 10 }));
  const heldMb = heapMb() - before;
  const estimateMb = (fresh.holdings[0]?.bytes ?? 0) / 1024 / 1024;
  figures.push({
    name: `first supplier search on a cold function (${label} suppliers)`,
    measured: cost(cold),
    baseline: `full scan: ${cost(scans.nobody)}`,
    ratio: round(cold.ms / scans.nobody.ms, 3),
    target: '<= 1,000 ms',
    met: cold.ms <= 1_000,
  });
  figures.push({
    name: `memory held per ${label} suppliers`,
    measured: `${round(heldMb)} MB of heap (engine's estimate ${round(estimateMb)} MB)`,
    baseline: '',
    ratio: null,
    target: `stated; a 1,769 MB function keeps up to ${Math.floor((1769 * 0.4) / Math.max(heldMb, estimateMb))} such tenants, least recently searched evicted first`,
    met: null,
  });

  // Warm searches through the service, as the handler runs them.
  await listSuppliers(principal, { page: 1, limit: 10, search: NOBODY }, Date.now(), undefined);
  for (const [term, name, scan] of [
    [NOBODY, 'a term nobody has', scans.nobody],
    [everybody, 'a term everybody has', scans.everybody],
  ] as const) {
    const search = await warm(() => listSuppliers(principal, { page: 1, limit: 10, search: term }, Date.now(), undefined));
    if (term === everybody && search.result.total !== count) throw new Error(`"${term}" matched ${search.result.total} of ${count}`);
    expectWarm(`warm supplier search, ${name}`, search);
    figures.push({
      name: `warm supplier search, ${name} (${label} suppliers)`,
      measured: cost(search),
      baseline: `full scan: ${cost(scan)}`,
      ratio: round(search.readUnits / scan.readUnits, 4),
      target: '<= 10 RCU, <= 50 ms',
      met: search.readUnits <= 10 && search.ms <= 50,
    });
  }

  figures.push(...(await supplierWriteFigures(principal, label, log)));
  figures.push(await supplierOracle(principal, log));
  return figures;
}

/**
 * A create, a rename and a delete, each with its units and the units of the same
 * transaction without the search's delta (what it wrote before the engine); then the search
 * that folds them, whose write units are shared by the writes it folded.
 */
async function supplierWriteFigures(principal: Principal, label: string, log: (line: string) => void): Promise<SearchFigure[]> {
  const now = Date.now();
  let next = 0;
  const document = () => cnpjWithCheckDigits(String(90_000_000 + (next += 1)).padStart(8, '0') + '0001');
  const writes: Record<'create' | 'rename' | 'delete', { units: number; without: number }[]> = { create: [], rename: [], delete: [] };
  const record = (kind: keyof typeof writes, entry: { writeUnits: number; writeUnitsByType: Record<string, number> }) =>
    writes[kind].push({ units: entry.writeUnits, without: entry.writeUnits - (entry.writeUnitsByType.SearchDelta ?? 0) });
  const created: string[] = [];
  // FOLD_AT - 1 writes leave the log one short of a fold: the warm search then reads them all.
  for (let index = 0; index < FOLD_AT - 1; index += 1) {
    if (index % 3 === 0) {
      const write = await measureCapacity(() =>
        createSupplier(
          principal,
          {
            name: `Bench Comércio ${index}`,
            corporateName: 'Bench Comércio Ltda',
            document: document(),
            email: 'contato@bench.com.br',
            phone: '+5511987654321',
          },
          now,
        ),
      );
      record('create', write);
      created.push(write.result.id);
    } else if (index % 3 === 1) {
      record('rename', await measureCapacity(() => updateSupplier(principal, created.at(-1) as string, { name: `Zeta Bench ${index}` }, now)));
    } else {
      record('delete', await measureCapacity(() => deleteSupplier(principal, created.pop() as string, now)));
    }
  }
  const pending = await warm(() => listSuppliers(principal, { page: 1, limit: 10, search: NOBODY }, Date.now(), undefined));
  // One more write, and the search that folds the FOLD_AT deltas.
  record(
    'create',
    await measureCapacity(() => createSupplier(principal, { name: 'Bench Último', corporateName: 'Bench Último Ltda', document: document() }, now)),
  );
  const fold = await measured(() => listSuppliers(principal, { page: 1, limit: 10, search: NOBODY }, Date.now(), undefined));
  const share = fold.writeUnits / FOLD_AT;
  log(
    `search: a warm search with ${FOLD_AT - 1} deltas pending: ${cost(pending)}; the search that folds ${FOLD_AT}: ${cost(fold)} (${round(share)} WCU per write)`,
  );
  const figures: SearchFigure[] = [
    {
      name: `warm supplier search with ${FOLD_AT - 1} writes not yet folded (${label} suppliers)`,
      measured: cost(pending),
      baseline: '',
      ratio: null,
      target: '<= 10 RCU, <= 50 ms',
      met: pending.readUnits <= 10 && pending.ms <= 50,
    },
    {
      name: `the search that folds ${FOLD_AT} writes (${label} suppliers)`,
      measured: cost(fold),
      baseline: '',
      ratio: null,
      target: 'its write units are shared by the writes (below)',
      met: null,
    },
  ];
  for (const kind of ['create', 'rename', 'delete'] as const) {
    const units = median(writes[kind].map((entry) => entry.units));
    const without = median(writes[kind].map((entry) => entry.without));
    const ratio = (units + share) / without;
    figures.push({
      name: `supplier ${kind}: write units with the search's delta and its share of the fold`,
      measured: `${round(units)} WCU + ${round(share)} of the fold`,
      baseline: `${round(without)} WCU without the search`,
      ratio: round(ratio, 2),
      target: '<= 2x',
      met: ratio <= 2,
    });
  }
  return figures;
}

/**
 * Random creates, renames and deletes, in parallel and with searches racing them, then
 * random terms: the engine's answer (every id, in order) against a full read of the index
 * filtered as the search always was. Throws on any difference.
 */
async function supplierOracle(principal: Principal, log: (line: string) => void): Promise<SearchFigure> {
  const { tenantId } = principal;
  const now = Date.now();
  const pool = generateSuppliers(400, 99);
  const index = await queryAll(keys.supplierIndex(tenantId).pk, { consistent: true });
  const ids = index.map((entry) => String(entry.id));
  let next = 0;
  const document = () => cnpjWithCheckDigits(String(80_000_000 + (next += 1)).padStart(8, '0') + '0001');
  const pick = (offset: number) => ids[(offset * 7919) % ids.length] as string;
  // Interleaved: a create, a rename and a delete in turn, eight at a time.
  const operations: (() => Promise<unknown>)[] = pool
    .slice(0, 200)
    .flatMap((supplier, offset) => [
      () =>
        createSupplier(
          principal,
          { name: supplier.name, corporateName: supplier.corporateName, document: document(), ...(supplier.email ? { email: supplier.email } : {}) },
          now,
        ),
      ...(offset < 100
        ? [
            () => updateSupplier(principal, pick(offset), { name: (pool[200 + offset] as Supplier).name }, now),
            () => deleteSupplier(principal, pick(offset + 500), now),
          ]
        : []),
    ]);
  const searching = mapConcurrently([0, 1, 2, 3], 1, () => listSuppliers(principal, { page: 1, limit: 10, search: 'silva' }, Date.now(), undefined));
  await mapConcurrently(operations, 8, async (operation) => {
    try {
      await operation();
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  });
  await searching;

  const entries = await queryAll(keys.supplierIndex(tenantId).pk, { consistent: true });
  const sample = (offset: number) => entries[(offset * 104_729) % entries.length] as Record<string, unknown>;
  const terms = ['silva', 'comercio', 'ltda', 'sao paulo', NOBODY, '0001', '11 9', '@', 'ç', 'a'];
  for (let offset = 0; offset < 15; offset += 1) {
    const supplier = (await findSupplier(tenantId, String(sample(offset).id))) as Supplier;
    const field = [supplier.name, supplier.corporateName.toUpperCase(), supplier.email ?? supplier.name, formatCnpj(supplier.document)][offset % 4] as string;
    terms.push(field.slice(offset % 5, (offset % 5) + 4));
  }
  const fresh = new SearchCache();
  for (const term of terms) {
    const matches = supplierMatcher(term);
    const expected = entries.filter((entry) => !matches || matches(String(entry.search))).map((entry) => String(entry.id));
    for (const [name, answer] of [
      ['the warm function', (await listSuppliers(principal, { page: 1, limit: 10, search: term }, Date.now(), undefined)).data.map((supplier) => supplier.id)],
      [
        'a fresh function',
        (await fresh.search(supplierSearchSource, tenantId, searchQuery(term), { offset: 0, limit: 1_000_000 })).records.map((record) => record.id),
      ],
    ] as const) {
      const wanted = name === 'the warm function' ? expected.slice(0, 10) : expected;
      if (JSON.stringify(answer) !== JSON.stringify(wanted))
        throw new Error(`search "${term}" from ${name} differs from the full scan: ${answer.length} ids against ${wanted.length}`);
    }
  }
  log(`search: ${terms.length} terms after ${operations.length} parallel writes: identical to the full scan`);
  return {
    name: `identical to a full scan after ${operations.length} parallel creates, renames and deletes (${entries.length.toLocaleString('en')} suppliers)`,
    measured: `${terms.length} of ${terms.length} terms`,
    baseline: '',
    ratio: null,
    target: 'every term',
    met: true,
  };
}

/**
 * The product figures at `count` products: created through the service (each create logs
 * its delta), the first search folding that backlog, then as for suppliers.
 */
export async function productSearchFigures(count: number, log: (line: string) => void): Promise<SearchFigure[]> {
  const now = Date.now();
  const principal = await benchTenant('product-search', now);
  const { tenantId } = principal;
  const label = count.toLocaleString('en');
  // The SKU sentinels a create writes (the search reads nothing else), bulk-loaded, then the chunks.
  const sentinels = Array.from({ length: count }, (_, index) => {
    const sku = `SKU-${String(index).padStart(6, '0')}`;
    const id = randomUUID();
    return {
      ...keys.productSku(tenantId, sku),
      type: INVENTORY_ITEMS.productSku,
      productId: id,
      id,
      sku,
      name: `Produto ${['Café', 'Açúcar', 'Arroz', 'Feijão', 'Óleo'][index % 5]} ${index}`,
      createdAt: new Date(now).toISOString(),
    };
  });
  await putAll(sentinels);
  if (!(await rebuildSearchList(productSearchSource, tenantId))) throw new Error('the product chunks changed during their build');
  const everybody = 'produto';

  // The baseline: a full read of the SKU sentinels, which a search without the engine would filter.
  const scan = () =>
    measured(
      async () => (await queryAll(keys.productSkusOfTenant(tenantId).pk, { skPrefix: keys.productSkusOfTenant(tenantId).skPrefix, consistent: true })).length,
    );
  const scans = { nobody: await scan(), everybody: await scan() };
  const fresh = new SearchCache();
  await expectChunks(tenantId, 'products');
  const cold = await measured(() => fresh.search(productSearchSource, tenantId, searchQuery(NOBODY), { limit: 101 }));
  const figures: SearchFigure[] = [
    {
      name: `first product search on a cold function (${label} products)`,
      measured: cost(cold),
      baseline: `full read of the SKU sentinels: ${cost(scans.nobody)}`,
      ratio: round(cold.ms / scans.nobody.ms, 3),
      target: '<= 1,000 ms',
      met: cold.ms <= 1_000,
    },
  ];
  await listProducts(principal, { limit: 100, search: NOBODY }, now, undefined);
  for (const [term, name, baseline] of [
    [NOBODY, 'a term nobody has', scans.nobody],
    [everybody, 'a term everybody has', scans.everybody],
  ] as const) {
    const search = await warm(() => listProducts(principal, { limit: 100, search: term }, Date.now(), undefined));
    if (term === everybody && search.result.items.length !== 100) throw new Error(`"${term}" gave a page of ${search.result.items.length}`);
    expectWarm(`warm product search, ${name}`, search);
    figures.push({
      name: `warm product search, ${name}, first page of 100 (${label} products)`,
      measured: cost(search),
      baseline: `full read: ${cost(baseline)}`,
      ratio: round(search.readUnits / baseline.readUnits, 4),
      target: '<= 10 RCU, <= 50 ms',
      met: search.readUnits <= 10 && search.ms <= 50,
    });
  }
  const creates = [];
  for (let index = 0; index < FOLD_AT; index += 1)
    creates.push(await measureCapacity(() => createProduct(principal, { sku: `NEW-${index}`, name: `Produto novo ${index}` }, now)));
  const fold = await measured(() => listProducts(principal, { limit: 100, search: NOBODY }, Date.now(), undefined));
  const share = fold.writeUnits / FOLD_AT;
  const units = median(creates.map((entry) => entry.writeUnits));
  const without = median(creates.map((entry) => entry.writeUnits - (entry.writeUnitsByType.SearchDelta ?? 0)));
  const ratio = (units + share) / without;
  figures.push({
    name: "product create: write units with the search's delta and its share of the fold",
    measured: `${round(units)} WCU + ${round(share)} of the fold`,
    baseline: `${round(without)} WCU without the search`,
    ratio: round(ratio, 2),
    target: '<= 2x',
    met: ratio <= 2,
  });
  log(`search: products: cold ${cost(cold)}; create ${round(units)} + ${round(share)} WCU against ${round(without)}`);
  return figures;
}
