/**
 * Scale figures of the inventory issue: how the read cost of the dashboards and of a
 * supplier page grows with the tenant's data, measured as DynamoDB capacity units
 * (ReturnConsumedCapacity on DynamoDB Local) in one run.
 *
 * - coverage read at 100 and at 100,000 sales (target ratio <= 1.1);
 * - by-warehouse read at 1,000 and at 20,000 stock rows (target <= 1.1);
 * - a supplier page without search at 10,000 suppliers, against a Query that reads all
 *   their items (target <= 0.1).
 *
 * Sales are loaded as daily totals (what a day's SALE movements leave behind), then rolled
 * up by the real job; stock rows as balance items. Both through lib/db/repositories/bulk.ts.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../lib/auth/principal';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db/client';
import { keys } from '../lib/db/keys';
import { putAll } from '../lib/db/repositories/bulk';
import { writeDailySalesTotals } from '../lib/db/repositories/sales-rollup';
import { stockByWarehouse, stockCoverage } from '../lib/inventory/dashboards';
import { addDays, dayOf } from '../lib/domain/days';
import { addMovement, createProduct, createWarehouse } from '../lib/inventory/service';
import { runSalesRollup } from '../lib/jobs/sales-rollup';
import { createSupplier, listSuppliers } from '../lib/suppliers/service';
import { measureCapacity } from './support/capacity';
import { INVENTORY_ITEMS } from '../lib/db/item-types';

export interface ScaleFigure {
  name: string;
  small: { label: string; capacityUnits: number; requests: number };
  large: { label: string; capacityUnits: number; requests: number };
  ratio: number;
  target: number;
  met: boolean;
}

function principalOf(tenantId: string): Principal {
  return {
    tenantId,
    userId: randomUUID(),
    sessionId: randomUUID(),
    jti: randomUUID(),
    role: 'ADMIN',
    platformAdmin: false,
    name: 'Bench',
    email: 'bench@example.com',
    tokenExpiresAt: 0,
    sessionsValidFrom: null,
  };
}

/** Run `tasks` with at most `width` in flight. */
async function inParallel<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await (tasks[index] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

const PRODUCTS = 50;

async function coverageTenant(sales: number, nowMs: number): Promise<Principal> {
  const principal = principalOf(randomUUID());
  const warehouse = await createWarehouse(principal, { name: 'Main' }, nowMs);
  const products = await inParallel(Array.from({ length: PRODUCTS }, (_, index) => () => createProduct(principal, { sku: `SKU-${index}`, name: `Product ${index}` }, nowMs)), 8);
  await inParallel(products.map((product) => () => addMovement(principal, { productId: product.id, warehouseId: warehouse.id, type: 'IN', quantity: 10_000, unitCost: 2 }, nowMs)), 4);

  const today = dayOf(nowMs, config().BUSINESS_TIME_ZONE);
  const totals = new Map<string, { tenantId: string; productId: string; day: string; units: number }>();
  for (let sale = 0; sale < sales; sale += 1) {
    const productId = (products[sale % PRODUCTS] as { id: string }).id;
    const day = addDays(today, -1 - ((sale * 7919) % 365));
    const key = `${productId}#${day}`;
    const entry = totals.get(key) ?? { tenantId: principal.tenantId, productId, day, units: 0 };
    entry.units += 1;
    totals.set(key, entry);
  }
  await writeDailySalesTotals([...totals.values()]);
  return principal;
}

async function warehouseTenant(stockRows: number, nowMs: number): Promise<Principal> {
  const principal = principalOf(randomUUID());
  const warehouses = await inParallel(['North', 'South', 'East', 'West'].map((name) => () => createWarehouse(principal, { name }, nowMs)), 4);
  const rows = Array.from({ length: stockRows }, (_, index) => {
    const warehouseId = (warehouses[index % warehouses.length] as { id: string }).id;
    const productId = randomUUID();
    return { ...keys.stock(principal.tenantId, productId, warehouseId), type: INVENTORY_ITEMS.stock, productId, warehouseId, quantity: 5, totalCost: 10, averageCost: 2, version: 1 };
  });
  await putAll(rows);
  return principal;
}

async function supplierTenant(count: number, nowMs: number, progress: (done: number) => void): Promise<Principal> {
  const principal = principalOf(randomUUID());
  let done = 0;
  await inParallel(
    Array.from({ length: count }, (_, index) => async () => {
      await createSupplier(
        principal,
        { name: `Fornecedor ${String(index).padStart(5, '0')}`, corporateName: `Fornecedor ${index} Ltda`, document: validCnpj(index), email: `f${index}@example.com`, phone: '+5511987654321', active: true },
        nowMs,
      );
      done += 1;
      if (done % 500 === 0) progress(done);
    }),
    16,
  );
  return principal;
}

/** A valid, distinct numeric CNPJ for each index (check digits computed). */
function validCnpj(index: number): string {
  const base = String(10_000_000 + index).padStart(8, '0') + '0001';
  const digit = (digits: string) => {
    const weights = digits.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = digits.split('').reduce((total, char, position) => total + (char.charCodeAt(0) - 48) * (weights[position] as number), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base);
  return `${base}${first}${digit(`${base}${first}`)}`;
}

/** Every supplier item of a tenant, read in full: the baseline a page must beat. */
async function readAllSupplierItems(tenantId: string): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.tenant(tenantId).pk, ':prefix': 'SUPPLIER#' },
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Items?.length ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

function figure(name: string, target: number, small: ScaleFigure['small'], large: ScaleFigure['large']): ScaleFigure {
  const ratio = large.capacityUnits / small.capacityUnits;
  return { name, small, large, ratio: Math.round(ratio * 1000) / 1000, target, met: ratio <= target };
}

export async function runScaleBench(log: (line: string) => void): Promise<ScaleFigure[]> {
  const nowMs = Date.now();
  const figures: ScaleFigure[] = [];

  log('scale: loading coverage tenants (100 and 100,000 sales) ...');
  const fewSales = await coverageTenant(100, nowMs);
  const manySales = await coverageTenant(100_000, nowMs);
  await runSalesRollup({ nowMs });
  const coverageSmall = await measureCapacity(() => stockCoverage(fewSales, 30, nowMs));
  const coverageLarge = await measureCapacity(() => stockCoverage(manySales, 30, nowMs));
  figures.push(
    figure(
      `coverage read (${PRODUCTS} products, days=30)`,
      1.1,
      { label: '100 sales', capacityUnits: coverageSmall.capacityUnits, requests: coverageSmall.requests },
      { label: '100,000 sales', capacityUnits: coverageLarge.capacityUnits, requests: coverageLarge.requests },
    ),
  );

  log('scale: loading by-warehouse tenants (1,000 and 20,000 stock rows) ...');
  const fewRows = await warehouseTenant(1_000, nowMs);
  const manyRows = await warehouseTenant(20_000, nowMs);
  const byWarehouseSmall = await measureCapacity(() => stockByWarehouse(fewRows));
  const byWarehouseLarge = await measureCapacity(() => stockByWarehouse(manyRows));
  figures.push(
    figure(
      'by-warehouse read (4 warehouses)',
      1.1,
      { label: '1,000 stock rows', capacityUnits: byWarehouseSmall.capacityUnits, requests: byWarehouseSmall.requests },
      { label: '20,000 stock rows', capacityUnits: byWarehouseLarge.capacityUnits, requests: byWarehouseLarge.requests },
    ),
  );

  log('scale: loading 10,000 suppliers ...');
  const suppliers = await supplierTenant(10_000, nowMs, (done) => log(`scale:   ${done} suppliers`));
  const page = await measureCapacity(() => listSuppliers(suppliers, { page: 1, limit: 10 }));
  const everything = await measureCapacity(() => readAllSupplierItems(suppliers.tenantId));
  if (everything.result !== 10_000) throw new Error(`expected 10,000 supplier items, read ${everything.result}`);
  figures.push(
    figure(
      'supplier page without search (10,000 suppliers, limit 10) vs reading every supplier item',
      0.1,
      { label: 'Query of all items', capacityUnits: everything.capacityUnits, requests: everything.requests },
      { label: 'page 1', capacityUnits: page.capacityUnits, requests: page.requests },
    ),
  );
  return figures;
}
