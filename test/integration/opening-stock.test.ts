import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { withRequestOrigin } from '../../lib/audit/context';
import { runImport, type ImportDeps } from '../../lib/imports/engine';
import type { ImportJob } from '../../lib/imports/model';
import { findImportJob } from '../../lib/imports/repository';
import { createImportJob } from '../../lib/imports/service';
import { verifyTenant } from '../../lib/integrity/engine';
import { gtinCheckDigit } from '../../lib/inventory/gtin';
import type { MovementView, WarehouseSummary } from '../../lib/inventory/schemas';
import { testPrincipal } from '../support/principal';
import { call, newTenantWithAdmin, useLocalStoreInProcess, type Account } from './api';

/**
 * Opening stock from a spreadsheet (import kind `stock`), its steps run in process as `npm start`
 * runs them: decimal commas exact, Windows-1252 read, a count per warehouse closed, and the same
 * file again changing nothing.
 */

beforeAll(() => useLocalStoreInProcess());

async function newJob(admin: Account, dryRun: boolean, bytes: Uint8Array): Promise<{ job: ImportJob; deps: ImportDeps }> {
  const principal = testPrincipal({ tenantId: admin.tenantId, userId: admin.userId, role: 'ADMIN', name: 'Admin' });
  const origin = { requestId: `test-${randomUUID()}`, sourceIp: '203.0.113.9', userAgent: 'vitest' };
  const job = await withRequestOrigin(origin, () =>
    createImportJob(principal, { kind: 'stock', dryRun, fileName: 'estoque.csv', size: bytes.byteLength }, Date.now()),
  );
  return { job, deps: { now: () => Date.now(), files: { read: () => Promise.resolve(bytes) }, stepRows: 3 } };
}

/** Text as Windows-1252 bytes (the Latin-1 range, which this file's text stays in). */
const windows1252 = (text: string) => Uint8Array.from(Array.from(text, (character) => character.charCodeAt(0)));

async function post<T = { id: string }>(account: Account, path: string, body: unknown): Promise<T> {
  const response = await call<T>('POST', path, { cookies: account.cookies, body });
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

const balanceOf = async (account: Account, productId: string, warehouseId: string) =>
  (await call<{ items: MovementView[] }>('GET', `/inventory/movements?productId=${productId}&warehouseId=${warehouseId}&limit=1`, { cookies: account.cookies }))
    .body.items[0]?.balance;
const byWarehouse = async (account: Account) =>
  new Map(
    (await call<WarehouseSummary[]>('GET', '/inventory/dashboard/by-warehouse', { cookies: account.cookies })).body.map((summary) => [
      summary.warehouseId,
      summary,
    ]),
  );

describe('importing opening stock', () => {
  it('sets exact balances from decimal commas, values the added units at the row cost, and the same file again changes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const matriz = await post(admin, '/inventory/warehouses', { name: 'Depósito Matriz' });
    const loja = await post(admin, '/inventory/warehouses', { name: 'Loja Centro' });
    const data = `789${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
    const gtin = `${data}${gtinCheckDigit(data)}`;
    const cafe = await post(admin, '/inventory/products', { sku: 'CAFE-KG', name: 'Café a granel', unit: 'KG' });
    const acucar = await post(admin, '/inventory/products', { sku: 'ACUCAR-1', name: 'Açúcar 1 kg', unit: 'UN', gtin });
    const arroz = await post(admin, '/inventory/products', { sku: 'ARROZ-5', name: 'Arroz 5 kg', unit: 'UN' });
    // Arroz already has 3 in the shop: the file's 5 adds 2.
    await post(admin, '/inventory/movements', { productId: arroz.id, warehouseId: loja.id, type: 'IN', quantity: 3, unitCost: 20 });

    const file = windows1252(
      [
        'Código;GTIN;Depósito;Quantidade;Custo unitário',
        'CAFE-KG;;Depósito Matriz;1000,75;32,40',
        `;${gtin};deposito matriz;12;4,5`,
        'ARROZ-5;;Loja Centro;5;22',
        'CAFE-KG;;Loja Centro;1,5;30',
        'ARROZ-5;;Loja Centro;1,5;22',
        'NAO-EXISTE;;Loja Centro;1;1',
        'ARROZ-5;;Depósito Sumido;1;1',
      ].join('\r\n') + '\r\n',
    );

    const dry = await newJob(admin, true, file);
    await runImport(dry.job, dry.deps);
    expect(await findImportJob(admin.tenantId, dry.job.id)).toMatchObject({ status: 'succeeded', created: 4, existing: 0, refused: 3 });
    expect(await balanceOf(admin, cafe.id, matriz.id)).toBeUndefined();

    const first = await newJob(admin, false, file);
    await runImport(first.job, first.deps);
    const done = await findImportJob(admin.tenantId, first.job.id);
    expect(done).toMatchObject({ status: 'succeeded', rowsDone: 7, created: 4, existing: 0, refused: 3 });
    expect(done?.errors).toEqual([
      { line: 6, field: 'Código', message: 'repeats line 4: the same product in the same warehouse' },
      { line: 7, field: 'Código', message: 'no product has the SKU NAO-EXISTE' },
      { line: 8, field: 'Depósito', message: 'no warehouse is named "Depósito Sumido"' },
    ]);

    expect(await balanceOf(admin, cafe.id, matriz.id)).toMatchObject({ quantity: 1000.75, averageCost: 32.4 });
    expect(await balanceOf(admin, acucar.id, matriz.id)).toMatchObject({ quantity: 12, averageCost: 4.5 });
    expect(await balanceOf(admin, cafe.id, loja.id)).toMatchObject({ quantity: 1.5, averageCost: 30 });
    // 3 at 20 kept, 2 added at 22: 104 for 5.
    expect(await balanceOf(admin, arroz.id, loja.id)).toMatchObject({ quantity: 5, averageCost: 20.8 });
    const totals = await byWarehouse(admin);
    // 1000.75 × 32.40 = 32,424.30 and 12 × 4.50 = 54
    expect(totals.get(matriz.id)).toMatchObject({ totalItems: 1012.75, totalValue: 32478.3 });
    expect(totals.get(loja.id)).toMatchObject({ totalItems: 6.5, totalValue: 149 });
    const counts = await call<{ items: { status: string; warehouseId: string }[] }>('GET', '/inventory/counts?status=CLOSED', { cookies: admin.cookies });
    expect(counts.body.items.map((count) => count.warehouseId).sort()).toEqual([matriz.id, loja.id].sort());

    const again = await newJob(admin, false, file);
    await runImport(again.job, again.deps);
    expect(await findImportJob(admin.tenantId, again.job.id)).toMatchObject({ status: 'succeeded', created: 0, existing: 4, refused: 3 });
    expect(await byWarehouse(admin)).toEqual(totals);
    const adjustments = await call<{ items: MovementView[] }>('GET', `/inventory/movements?type=ADJUSTMENT&limit=100`, { cookies: admin.cookies });
    expect(adjustments.body.items).toHaveLength(4);
    const report = await verifyTenant(admin.tenantId);
    expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
  });
});
