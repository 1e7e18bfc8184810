import { randomUUID } from 'node:crypto';
import { cpf } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { withRequestOrigin } from '../../lib/audit/context';
import { userActor } from '../../lib/audit/record';
import { readAuditPage } from '../../lib/audit/repository';
import { keys } from '../../lib/db/keys';
import { queryAll } from '../../lib/db/query';
import { MAX_BLOCK_ENTRIES, readSupplierBlocks } from '../../lib/suppliers/blocks-repository';
import { bulkInsertSuppliers } from '../../lib/suppliers/repository';
import { mapConcurrently } from '../../lib/domain/concurrency';
import type { Supplier } from '../../lib/suppliers/model';
import { createSupplier, deleteSupplier, listSuppliers, updateSupplier } from '../../lib/suppliers/service';
import { testPrincipal } from '../support/principal';
import { backfillListings } from '../../tools/admin/backfill-listings';
import { useLocalStoreInProcess } from './api';

/**
 * Deep pages of the unsearched supplier list come from the index blocks
 * (lib/suppliers/blocks-repository): every page must be exactly the slice of the index
 * at its offset, and the blocks must keep counting exactly what they hold, through parallel
 * creates, renames that move a supplier to another block, deletes and splits.
 */
beforeAll(useLocalStoreInProcess);

const NOW = Date.parse('2026-11-20T12:00:00.000Z');

const bulkSupplier = (name: string): Supplier => ({
  id: randomUUID(),
  name,
  corporateName: `${name} Ltda`,
  document: cpf.generate(),
  email: null,
  phone: null,
  active: true,
  createdAt: new Date(NOW).toISOString(),
  updatedAt: new Date(NOW).toISOString(),
});

/** The index in order: what every page must be a slice of. */
const indexIds = async (tenantId: string) => (await queryAll(keys.supplierIndex(tenantId).pk, { consistent: true })).map((entry) => String(entry.id));

/** Each block counts exactly the entries from its first up to the next block's first, the blocks add up to the index, and none is over the size. */
async function expectBlocksExact(tenantId: string, splitsInFlight = 0) {
  const [blocks, entries] = await Promise.all([readSupplierBlocks(tenantId), queryAll(keys.supplierIndex(tenantId).pk, { consistent: true })]);
  expect(blocks[0]?.firstSk).toBe('');
  const counted = blocks.map((block, index) => {
    const next = blocks[index + 1]?.firstSk;
    return entries.filter((entry) => String(entry.sk) >= block.firstSk && (next === undefined || String(entry.sk) < next)).length;
  });
  expect(blocks.map((block) => block.count)).toEqual(counted);
  // A split is tried by the write that fills a block; parallel writes may add to it meanwhile.
  expect(Math.max(...blocks.map((block) => block.count))).toBeLessThanOrEqual(MAX_BLOCK_ENTRIES + splitsInFlight);
  return blocks;
}

async function expectPagesAreSlices(tenantId: string, limits: number[]) {
  const principal = testPrincipal({ tenantId });
  const ids = await indexIds(tenantId);
  for (const limit of limits) {
    for (const page of [
      1,
      Math.ceil(MAX_BLOCK_ENTRIES / limit) + 1,
      Math.floor(ids.length / limit),
      Math.ceil(ids.length / limit),
      Math.ceil(ids.length / limit) + 1,
    ]) {
      const answer = await listSuppliers(principal, { page, limit }, Date.now(), undefined);
      expect(answer.total, `page ${page}, limit ${limit}`).toBe(ids.length);
      expect(
        answer.data.map((supplier) => supplier.id),
        `page ${page}, limit ${limit}`,
      ).toEqual(ids.slice((page - 1) * limit, page * limit));
    }
  }
}

describe('the supplier index blocks', () => {
  it('serve deep pages as exact slices of the index after a bulk load', async () => {
    const tenantId = randomUUID();
    await bulkInsertSuppliers(
      tenantId,
      Array.from({ length: 1_050 }, (_, index) => bulkSupplier(`Fornecedor ${String(index).padStart(4, '0')}`)),
    );
    const blocks = await expectBlocksExact(tenantId);
    expect(blocks.length).toBe(Math.ceil(1_050 / (MAX_BLOCK_ENTRIES / 2)));
    await expectPagesAreSlices(tenantId, [1, 7, 10, 100]);
  });

  it('keep counting exactly through parallel creates, renames across blocks, deletes and splits', async () => {
    const tenantId = randomUUID();
    const principal = testPrincipal({ tenantId, role: 'ADMIN' });
    const loaded = Array.from({ length: 600 }, (_, index) => bulkSupplier(`Mercado ${String(index).padStart(4, '0')}`));
    await bulkInsertSuppliers(tenantId, loaded);
    const before = (await readSupplierBlocks(tenantId)).length;

    // All of these sort before every loaded name, into the first block, which must split.
    const created = await mapConcurrently(
      Array.from({ length: 260 }, (_, index) => index),
      16,
      (index) => createSupplier(principal, { name: `Atacado ${String(index).padStart(3, '0')}`, corporateName: 'Atacado Ltda', document: cpf.generate() }, NOW),
    );
    await mapConcurrently(created.slice(0, 40), 8, (supplier) => deleteSupplier(principal, supplier.id, NOW));
    // Renames from the first block to the last, and from the middle to the first.
    await mapConcurrently(created.slice(40, 60), 8, (supplier) => updateSupplier(principal, supplier.id, { name: `Zona ${supplier.name}` }, NOW));
    await mapConcurrently(loaded.slice(300, 320), 8, (supplier) => updateSupplier(principal, supplier.id, { name: `Aaa ${supplier.name}` }, NOW));

    const blocks = await expectBlocksExact(tenantId, 16);
    expect(blocks.length).toBeGreaterThan(before);
    expect((await indexIds(tenantId)).length).toBe(600 + 260 - 40);
    await expectPagesAreSlices(tenantId, [3, 10, 100]);
  });

  it('split under a steady stream of parallel creates into one block (names created in order)', async () => {
    const tenantId = randomUUID();
    const principal = testPrincipal({ tenantId, role: 'ADMIN' });
    await bulkInsertSuppliers(
      tenantId,
      Array.from({ length: 300 }, (_, index) => bulkSupplier(`Casa ${String(index).padStart(4, '0')}`)),
    );
    // Every one sorts after every other: they all land in the last block, 16 at a time.
    await mapConcurrently(
      Array.from({ length: 500 }, (_, index) => index),
      16,
      (index) => createSupplier(principal, { name: `Zelo ${String(index).padStart(4, '0')}`, corporateName: 'Zelo Ltda', document: cpf.generate() }, NOW),
    );
    const blocks = await expectBlocksExact(tenantId, 16);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    await expectPagesAreSlices(tenantId, [10]);
  });

  it('leave a tenant whose suppliers predate them on the full read, until they are rebuilt', async () => {
    const tenantId = randomUUID();
    const principal = testPrincipal({ tenantId, role: 'ADMIN' });
    await bulkInsertSuppliers(
      tenantId,
      Array.from({ length: 450 }, (_, index) => bulkSupplier(`Loja ${String(index).padStart(4, '0')}`)),
    );
    // As before the blocks: none.
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, tableName } = await import('../../lib/db/client');
    for (const block of await readSupplierBlocks(tenantId))
      await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.supplierBlock(tenantId, block.firstSk) }));

    // A create counts no block (a first block holding 1 would leave the migration below a
    // wrong block to keep, which expectBlocksExact would catch).
    await createSupplier(principal, { name: 'Loja Nova', corporateName: 'Loja Nova Ltda', document: cpf.generate() }, NOW);
    await expectPagesAreSlices(tenantId, [10]);

    // `npm run migrate` builds them (this run, or the one of backfill.test.ts running beside
    // it); from then on writes keep them.
    await backfillListings();
    await createSupplier(principal, { name: 'Loja Mais Nova', corporateName: 'Loja Mais Nova Ltda', document: cpf.generate() }, NOW);
    expect((await expectBlocksExact(tenantId)).length).toBe(3);
    await expectPagesAreSlices(tenantId, [10]);
    // The migration scans the whole store the integration files share, which grows with them
    // (25 to 30 s on 2 cores once the imports' tests joined): a guard against a hang, not a timing.
  }, 120_000);
});

/** The audit entries of one supplier, newest first (its resource's list: consistent). */
const entriesOf = async (tenantId: string, supplierId: string) =>
  (await readAuditPage({ tenantId }, { filter: { resourceId: supplierId }, fromSk: '0', toSk: '~', limit: 20 })).entries;

describe('the audit trail of suppliers', () => {
  it('records a create, an update with its changed fields, an update that changes nothing and a delete: one entry each, none for a refused write', async () => {
    const tenantId = randomUUID();
    const principal = testPrincipal({ tenantId, role: 'ADMIN' });
    const origin = { requestId: 'audit-it-1', sourceIp: '203.0.113.7', userAgent: 'vitest', actor: userActor({ id: principal.userId, name: principal.name }) };
    const asCaller = <T>(fn: () => Promise<T>) => withRequestOrigin(origin, fn);

    const created = await asCaller(() =>
      createSupplier(principal, { name: 'Acme', corporateName: 'Acme Ltda', document: cpf.generate(), email: 'acme@example.com' }, NOW),
    );
    const other = await asCaller(() => createSupplier(principal, { name: 'Beta', corporateName: 'Beta Ltda', document: cpf.generate() }, NOW));
    await asCaller(() => updateSupplier(principal, created.id, { name: 'Acme Novo', email: null, active: true }, NOW + 1_000));
    await asCaller(() => updateSupplier(principal, created.id, { active: true }, NOW + 2_000));
    // A document another supplier holds: 409, and no entry.
    await expect(asCaller(() => updateSupplier(principal, other.id, { document: created.document.replace(/\D/g, '') }, NOW + 2_500))).rejects.toThrow(
      'already exists',
    );
    await asCaller(() => deleteSupplier(principal, created.id, NOW + 3_000));
    await expect(asCaller(() => deleteSupplier(principal, created.id, NOW + 4_000))).rejects.toThrow('No such supplier');

    const common = {
      actor: origin.actor,
      resource: { type: 'supplier', id: created.id },
      requestId: 'audit-it-1',
      sourceIp: '203.0.113.7',
      userAgent: 'vitest',
      id: expect.any(String),
    };
    expect(await entriesOf(tenantId, created.id)).toEqual([
      { ...common, action: 'supplier.deleted', occurredAt: new Date(NOW + 3_000).toISOString(), changes: null },
      { ...common, action: 'supplier.updated', occurredAt: new Date(NOW + 2_000).toISOString(), changes: [] },
      {
        ...common,
        action: 'supplier.updated',
        occurredAt: new Date(NOW + 1_000).toISOString(),
        changes: [
          { field: 'name', before: 'Acme', after: 'Acme Novo' },
          { field: 'email', before: 'acme@example.com', after: null },
        ],
      },
      { ...common, action: 'supplier.created', occurredAt: new Date(NOW).toISOString(), changes: null },
    ]);
    expect((await entriesOf(tenantId, other.id)).map((entry) => entry.action)).toEqual(['supplier.created']);
  });

  it('records each of parallel renames against the name its committed write replaced: the entries chain from the first name to the last', async () => {
    const tenantId = randomUUID();
    const principal = testPrincipal({ tenantId, role: 'ADMIN' });
    const supplier = await createSupplier(principal, { name: 'Nome 0', corporateName: 'Nome Ltda', document: cpf.generate() }, NOW);
    const names = Array.from({ length: 8 }, (_, index) => `Nome ${index + 1}`);

    await Promise.all(names.map((name) => updateSupplier(principal, supplier.id, { name }, NOW + 1_000)));

    const updates = (await entriesOf(tenantId, supplier.id)).filter((entry) => entry.action === 'supplier.updated');
    expect(updates).toHaveLength(names.length);
    // Outside a request (a script), the platform itself is the actor.
    for (const entry of updates) expect(entry.actor).toEqual({ type: 'system', id: null, name: null });
    const next = new Map(updates.map((entry) => [entry.changes?.[0]?.before, entry.changes?.[0]?.after]));
    let name: unknown = 'Nome 0';
    for (let step = 0; step < names.length; step += 1) name = next.get(name);
    expect(name).toBe((await listSuppliers(principal, { page: 1, limit: 1 }, Date.now(), undefined)).data[0]?.name);
    expect(new Set(next.values())).toEqual(new Set(names));
  });
});
