import { randomUUID } from 'node:crypto';
import { prng } from '../../bench/support/prng';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatCnpj, generateSuppliers } from '../../bench/support/brazilian-suppliers';
import { keys } from '../../lib/db/keys';
import { queryAll } from '../../lib/db/query';
import { readSearchLog } from '../../lib/search/repository';
import { bulkInsertSuppliers, findSupplier, supplierSearchSource } from '../../lib/suppliers/repository';
import { supplierMatcher } from '../../lib/suppliers/search';
import { mapConcurrently } from '../../lib/domain/concurrency';
import { NotFound } from '../../lib/errors';
import { FOLD_AT, SearchCache } from '../../lib/search/engine';
import { searchQuery } from '../../lib/search/query';
import type { Supplier } from '../../lib/suppliers/model';
import { createSupplier, deleteSupplier, listSuppliers, toSupplierView, updateSupplier } from '../../lib/suppliers/service';
import { cnpjWithCheckDigits } from '../../bench/support/documents';
import { testPrincipal } from '../support/principal';
import { useLocalStoreInProcess } from './api';

/**
 * The in-memory search (lib/search/engine) must answer exactly what a full scan of the
 * supplier index answers (the order, the total, every id), for random terms, after random
 * creates, renames, other changes and deletes, sequential and in parallel, as seen by
 * several functions at once: one that searches after every round, one that falls behind
 * for rounds (so folds and new generations happen under it), and the service's own. The
 * tenant grows past its chunk level (a new generation) and shrinks back below it.
 */
beforeAll(useLocalStoreInProcess);

const NOW = Date.parse('2026-11-20T12:00:00.000Z');

/** The full scan: every index entry, in order, matched as the search always was. */
async function scan(tenantId: string, term: string): Promise<string[]> {
  const matches = supplierMatcher(term);
  const entries = await queryAll(keys.supplierIndex(tenantId).pk, { consistent: true });
  return entries.filter((entry) => !matches || matches(String(entry.search))).map((entry) => String(entry.id));
}

describe('the in-memory supplier search', () => {
  it(
    'answers exactly what a full scan answers, for random terms after random creates, renames and deletes, in parallel, from three functions',
    { timeout: 240_000 },
    async () => {
      const random = prng(20261126);
      const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
      const tenantId = randomUUID();
      const principal = testPrincipal({ tenantId, role: 'ADMIN' });
      let documents = 0;
      const nextDocument = () => cnpjWithCheckDigits(String(50_000_000 + (documents += 1)).padStart(8, '0') + '0001');

      const initial = generateSuppliers(120, 7);
      await bulkInsertSuppliers(tenantId, initial);
      const live = new Map<string, Supplier>(initial.map((supplier) => [supplier.id, supplier]));
      const pool = generateSuppliers(2_000, 8);

      const eager = new SearchCache();
      const laggard = new SearchCache();
      const generations = new Set<string>();
      const levels = new Set<number>();

      /** A term drawn from a live supplier (a piece of a field as people type it), or one of the fixed hard cases. */
      const term = (): string => {
        const supplier = pick([...live.values()]);
        if (!supplier || random() < 0.15) return pick(['zzqx', 'a', ' LTDA ', '.', 'ç', 'sao paulo', '-', '9', 'contato@']);
        const piece = (text: string) => {
          const start = Math.floor(random() * Math.max(1, text.length - 2));
          return text.slice(start, start + 2 + Math.floor(random() * 7));
        };
        switch (Math.floor(random() * 5)) {
          case 0:
            return piece(supplier.name);
          case 1:
            return piece(supplier.corporateName).toUpperCase();
          case 2:
            return supplier.email ? piece(supplier.email) : piece(supplier.name);
          case 3:
            return piece(formatCnpj(supplier.document));
          default:
            return supplier.phone ? piece(`(${supplier.phone.slice(3, 5)}) ${supplier.phone.slice(5, 10)}-${supplier.phone.slice(10)}`) : 'zzqx';
        }
      };

      const compare = async (cache: SearchCache, label: string) => {
        for (let index = 0; index < 12; index += 1) {
          const searched = term();
          const query = searchQuery(searched);
          const [expected, found] = [
            await scan(tenantId, searched),
            await cache.search(supplierSearchSource, tenantId, query, { offset: 0, limit: 1_000_000 }),
          ];
          expect({ ids: found.records.map((record) => record.id), total: found.total }, `${label}: "${searched}"`).toEqual({
            ids: expected,
            total: expected.length,
          });
        }
      };

      const create = async () => {
        const drawn = pool.pop() as Supplier;
        const view = await createSupplier(
          principal,
          {
            name: drawn.name,
            corporateName: drawn.corporateName,
            document: nextDocument(),
            ...(drawn.email ? { email: drawn.email } : {}),
            ...(drawn.phone ? { phone: drawn.phone } : {}),
          },
          NOW,
        );
        const stored = await findSupplier(tenantId, view.id);
        if (stored) live.set(stored.id, stored);
      };
      /** A change of one live supplier; a delete or change racing another may find it gone (404). */
      const change = async (kind: 'rename' | 'fields' | 'delete', supplier: Supplier) => {
        try {
          if (kind === 'delete') {
            await deleteSupplier(principal, supplier.id, NOW);
            live.delete(supplier.id);
            return;
          }
          const changes =
            kind === 'rename'
              ? { name: (pool.pop() as Supplier).name }
              : pick([
                  { email: null },
                  { phone: '+5521987650000' },
                  { document: nextDocument() },
                  { corporateName: 'Águas Claras Comércio Ltda' },
                  { active: false },
                ]);
          await updateSupplier(principal, supplier.id, changes, NOW);
          const stored = await findSupplier(tenantId, supplier.id);
          if (stored) live.set(stored.id, stored);
        } catch (error) {
          if (!(error instanceof NotFound)) throw error;
        }
      };

      for (let round = 0; round < 7; round += 1) {
        const shrinking = round === 6;
        const targets = [...live.values()];
        const operations: (() => Promise<void>)[] = shrinking
          ? targets.slice(0, Math.floor(targets.length * 0.9)).map((supplier) => () => change('delete', supplier))
          : [
              ...Array.from({ length: 45 }, () => create),
              ...Array.from({ length: 15 }, () => () => change('rename', pick(targets))),
              ...Array.from({ length: 8 }, () => () => change('fields', pick(targets))),
              ...Array.from({ length: 10 }, () => () => change('delete', pick(targets))),
            ];
        operations.sort(() => random() - 0.5);
        // The writes in parallel, and searches of the eager function running among them (their folds race the writes).
        const searching = mapConcurrently([0, 1, 2], 1, () => eager.search(supplierSearchSource, tenantId, searchQuery('a'), { limit: 10 }));
        await mapConcurrently(operations, 8, (operation) => operation());
        await searching;

        await compare(eager, `round ${round}, eager`);
        if (round % 3 === 2 || shrinking) await compare(laggard, `round ${round}, laggard`);
        const { manifest } = await readSearchLog(tenantId, 'suppliers');
        if (manifest) {
          generations.add(manifest.generation);
          levels.add(manifest.level);
        }
        // The service's page: the slice of the scan, each supplier as it is stored now.
        const searched = term();
        const expected = await scan(tenantId, searched);
        const page = await listSuppliers(principal, { page: 2, limit: 5, search: searched }, NOW, undefined);
        const shown = await Promise.all(expected.slice(5, 10).map(async (id) => toSupplierView((await findSupplier(tenantId, id)) as Supplier)));
        expect(page, `round ${round}, service: "${searched}"`).toEqual({ data: shown, total: expected.length, page: 2, limit: 5 });
      }

      // The tenant grew past its level and shrank back: several generations at several levels, and folds kept the log short.
      expect(generations.size).toBeGreaterThanOrEqual(3);
      expect(levels.size).toBeGreaterThanOrEqual(2);
      await eager.search(supplierSearchSource, tenantId, undefined, { limit: 1 });
      expect((await readSearchLog(tenantId, 'suppliers')).deltas.length).toBeLessThan(FOLD_AT);
    },
  );

  it('holds tenants within its memory budget, letting the least recently searched go first', async () => {
    const tenants = [randomUUID(), randomUUID(), randomUUID()];
    for (const [index, tenantId] of tenants.entries()) await bulkInsertSuppliers(tenantId, generateSuppliers(40, 100 + index));
    const sizes = new Map<string, number>();
    const measure = new SearchCache();
    for (const tenantId of tenants) {
      await measure.search(supplierSearchSource, tenantId, undefined, { limit: 1 });
      sizes.set(tenantId, measure.holdings.find((held) => held.key === `suppliers#${tenantId}`)?.bytes ?? 0);
    }
    expect([...sizes.values()].every((bytes) => bytes > 0)).toBe(true);
    const [first, second, third] = tenants as [string, string, string];
    // Room for the first two, not for a third.
    const budget = (sizes.get(first) ?? 0) + (sizes.get(second) ?? 0) + 1;
    const cache = new SearchCache(() => budget);
    const held = () => cache.holdings.map((entry) => entry.key.replace('suppliers#', ''));
    for (const tenantId of [first, second]) await cache.search(supplierSearchSource, tenantId, undefined, { limit: 1 });
    expect(held()).toEqual([first, second]);
    await cache.search(supplierSearchSource, first, undefined, { limit: 1 });
    expect(held()).toEqual([second, first]);
    await cache.search(supplierSearchSource, third, undefined, { limit: 1 });
    expect(held()).not.toContain(second);
    expect(held().at(-1)).toBe(third);
    // A tenant larger than the whole budget is still answered, and held alone.
    const tiny = new SearchCache(() => 1);
    expect((await tiny.search(supplierSearchSource, first, searchQuery('a'), { limit: 3 })).records.length).toBe(3);
    await tiny.search(supplierSearchSource, second, undefined, { limit: 1 });
    expect(tiny.holdings.map((entry) => entry.key)).toEqual([`suppliers#${second}`]);
  });
});
