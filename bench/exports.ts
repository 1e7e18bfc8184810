/**
 * `npx tsx bench/exports.ts [suppliers] [products]` (defaults 100000 and 20000): CSV exports on
 * DynamoDB Local, with the engine the worker and npm start run (lib/exports/engine), writing to a
 * local folder as npm start does:
 * - the suppliers of a tenant bulk-loaded with the items insertSupplier writes (target: within
 *   the worker's 300 s, at the pace a deployed table would only better);
 * - the products of another, created through the service, two warehouses with stock for every
 *   tenth product (same target);
 * and for each the rows, the file's size, rows per second and the process's peak memory (the
 *   file is streamed: memory must not grow with it).
 * Not part of `npm run bench` yet (bench/run.ts would list it as the part `exports`).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { bulkInsertSuppliers } from '../lib/db/repositories/suppliers';
import { rebuildSupplierBlocks } from '../lib/db/repositories/supplier-blocks';
import { findExportJob } from '../lib/db/repositories/exports';
import { mapConcurrently } from '../lib/domain/concurrency';
import { runExport } from '../lib/exports/engine';
import type { ExportKind } from '../lib/exports/model';
import { createExportJob } from '../lib/exports/service';
import { exportFileKey, localExportStorage } from '../lib/exports/storage';
import { addMovement, createProduct, createWarehouse } from '../lib/inventory/service';
import { generateSuppliers } from './support/brazilian-suppliers';
import { benchPrincipal } from './support/principal';
import { benchStore } from './support/store';

export interface ExportFigure {
  kind: ExportKind;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  fileKB: number;
  peakRssMB: number;
  target: string;
  met: boolean;
}

/** The worker's timeout (infra/constructs/exports.ts): an export must end within it. */
const TARGET_SECONDS = 300;

async function timedExport(tenantId: string, kind: 'suppliers' | 'products', directory: string): Promise<ExportFigure> {
  const admin = benchPrincipal(tenantId);
  const job = await createExportJob(admin, { kind }, Date.now());
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  await runExport(job, { now: Date.now, files: localExportStorage('bench', directory) });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const done = await findExportJob(tenantId, job.id);
  if (done?.status !== 'done') throw new Error(`the ${kind} export ended ${done?.status ?? 'missing'}: ${done?.failure ?? ''}`);
  return {
    kind,
    rows: done.rows,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSecond: Math.round(done.rows / seconds),
    fileKB: Math.round(statSync(join(directory, exportFileKey(job))).size / 1024),
    peakRssMB: Math.round(peak / 1024 / 1024),
    target: `< ${TARGET_SECONDS} s`,
    met: seconds < TARGET_SECONDS,
  };
}

export async function runExportBench(log: (line: string) => void, sizes: { suppliers: number; products: number }): Promise<ExportFigure[]> {
  const directory = mkdtempSync(join(tmpdir(), 'backoffice-exports-'));
  try {
    const suppliersTenant = randomUUID();
    log(`exports: bulk-loading ${sizes.suppliers} suppliers ...`);
    await bulkInsertSuppliers(suppliersTenant, generateSuppliers(sizes.suppliers));
    await rebuildSupplierBlocks(suppliersTenant);
    const suppliers = await timedExport(suppliersTenant, 'suppliers', directory);
    log(`exports: ${suppliers.rows} suppliers in ${suppliers.seconds} s`);

    const productsTenant = benchPrincipal(randomUUID());
    log(`exports: creating ${sizes.products} products, stock in two warehouses for every tenth ...`);
    const warehouses = [await createWarehouse(productsTenant, { name: 'Depósito Norte' }, Date.now()), await createWarehouse(productsTenant, { name: 'Depósito Sul' }, Date.now())];
    await mapConcurrently(Array.from({ length: sizes.products }, (_, index) => index), 16, async (index) => {
      const product = await createProduct(productsTenant, { sku: `SKU-${String(index).padStart(6, '0')}`, name: `Produto de teste ${index}` }, Date.now());
      if (index % 10 === 0) {
        for (const warehouse of warehouses) await addMovement(productsTenant, { productId: product.id, warehouseId: warehouse.id, type: 'IN', quantity: 12.5, unitCost: 3.25 }, Date.now());
      }
    });
    const products = await timedExport(productsTenant.tenantId, 'products', directory);
    log(`exports: ${products.rows} products in ${products.seconds} s`);
    return [suppliers, products];
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [suppliers = 100_000, products = 20_000] = process.argv.slice(2).map(Number);
  const store = await benchStore();
  try {
    const figures = await runExportBench((line) => console.log(line), { suppliers, products });
    console.log('\nExports (DynamoDB Local, the engine in process as npm start runs it)');
    console.table(figures.map((entry) => ({ kind: entry.kind, rows: entry.rows, seconds: entry.seconds, 'rows/s': entry.rowsPerSecond, 'file KB': entry.fileKB, 'peak RSS MB': entry.peakRssMB, target: entry.target, met: entry.met ? 'yes' : 'NO' })));
  } finally {
    await store.stop();
  }
}

if (process.argv[1]?.endsWith('bench/exports.ts')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
