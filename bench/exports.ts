/**
 * `npx tsx bench/exports.ts [suppliers] [products]` (defaults 100000 and 20000): CSV exports on
 * DynamoDB Local, with the engine the worker and npm start run (lib/exports/engine), writing to a
 * local folder as npm start does:
 * - the suppliers of a tenant bulk-loaded with the items insertSupplier writes (target: within
 *   the worker's 300 s, at the pace a deployed table would only better);
 * - the products of another, created through the service, two warehouses with stock for every
 *   tenth product (same target);
 * and for each the rows, the file's size, rows per second and the process's peak memory (the
 *   file is streamed: memory must not grow with it), against the strongest baseline in the same
 *   run: the same rows read page after page (100 a page) through the list routes' services, what
 *   a client would do without an export, as a ratio of rows a second.
 * Also `npm run bench -- exports`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bulkInsertSuppliers } from '../lib/suppliers/repository';
import { rebuildSupplierBlocks } from '../lib/suppliers/blocks-repository';
import { findExportJob } from '../lib/exports/repository';
import { mapConcurrently } from '../lib/domain/concurrency';
import { runExport } from '../lib/exports/engine';
import type { ExportKind } from '../lib/exports/model';
import { createExportJob } from '../lib/exports/service';
import { exportFileKey, exportFilesAt } from '../lib/exports/storage';
import { addMovement, createProduct, createWarehouse, listProducts } from '../lib/inventory/service';
import { listSuppliers } from '../lib/suppliers/service';
import { generateSuppliers } from './support/brazilian-suppliers';
import { benchAdministratorOf, benchTenant } from './support/principal';
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
  /** Reading the same rows through the list route's service, page after page. */
  baseline: { seconds: number; rowsPerSecond: number };
  /** The export's rows a second over the baseline's. */
  ratio: number;
}

/** Every supplier page after page, as GET /suppliers?page=N&limit=100 reads them; the rows read and the seconds. */
async function readSupplierPages(tenantId: string): Promise<{ rows: number; seconds: number }> {
  const reader = await benchAdministratorOf(tenantId);
  const started = performance.now();
  let rows = 0;
  for (let page = 1; ; page += 1) {
    const { data } = await listSuppliers(reader, { page, limit: 100 }, Date.now(), undefined);
    rows += data.length;
    if (data.length < 100) break;
  }
  return { rows, seconds: (performance.now() - started) / 1000 };
}

/** Every product page after page, as GET /inventory/products?limit=100 and its cursors read them. */
async function readProductPages(tenantId: string): Promise<{ rows: number; seconds: number }> {
  const reader = await benchAdministratorOf(tenantId);
  const started = performance.now();
  let rows = 0;
  let cursor: string | undefined;
  do {
    const page = await listProducts(reader, { limit: 100, ...(cursor ? { cursor } : {}) }, Date.now(), undefined);
    rows += page.items.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { rows, seconds: (performance.now() - started) / 1000 };
}

function withBaseline(figure: Omit<ExportFigure, 'baseline' | 'ratio'>, read: { rows: number; seconds: number }, expected: number): ExportFigure {
  if (figure.rows !== expected) throw new Error(`the ${figure.kind} export wrote ${figure.rows} rows of the tenant's ${expected}`);
  if (read.rows !== figure.rows) throw new Error(`the ${figure.kind} baseline read ${read.rows} rows, the export ${figure.rows}`);
  const rowsPerSecond = Math.round(read.rows / read.seconds);
  return {
    ...figure,
    baseline: { seconds: Math.round(read.seconds * 10) / 10, rowsPerSecond },
    ratio: Math.round((figure.rowsPerSecond / rowsPerSecond) * 100) / 100,
  };
}

/** The worker's timeout (infra/constructs/exports.ts): an export must end within it. */
const TARGET_SECONDS = 300;

async function timedExport(tenantId: string, kind: 'suppliers' | 'products', directory: string): Promise<Omit<ExportFigure, 'baseline' | 'ratio'>> {
  const admin = await benchAdministratorOf(tenantId);
  const job = await createExportJob(admin, { kind }, Date.now());
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  await runExport(job, { now: Date.now, files: exportFilesAt({ folder: directory, secret: 'bench' }) });
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
    const suppliersTenant = (await benchTenant('export-suppliers')).tenantId;
    log(`exports: bulk-loading ${sizes.suppliers} suppliers ...`);
    await bulkInsertSuppliers(suppliersTenant, generateSuppliers(sizes.suppliers));
    await rebuildSupplierBlocks(suppliersTenant);
    const suppliers = withBaseline(await timedExport(suppliersTenant, 'suppliers', directory), await readSupplierPages(suppliersTenant), sizes.suppliers);
    log(`exports: ${suppliers.rows} suppliers in ${suppliers.seconds} s (page after page: ${suppliers.baseline.seconds} s)`);

    const productsTenant = await benchTenant('export-products');
    log(`exports: creating ${sizes.products} products, stock in two warehouses for every tenth ...`);
    const warehouses = [
      await createWarehouse(productsTenant, { name: 'Depósito Norte' }, Date.now()),
      await createWarehouse(productsTenant, { name: 'Depósito Sul' }, Date.now()),
    ];
    await mapConcurrently(
      Array.from({ length: sizes.products }, (_, index) => index),
      16,
      async (index) => {
        const product = await createProduct(
          productsTenant,
          { sku: `SKU-${String(index).padStart(6, '0')}`, name: `Produto de teste ${index}`, unit: 'KG' },
          Date.now(),
        );
        if (index % 10 === 0) {
          for (const warehouse of warehouses)
            await addMovement(productsTenant, { productId: product.id, warehouseId: warehouse.id, type: 'IN', quantity: 12.5, unitCost: 3.25 }, Date.now());
        }
      },
    );
    const products = withBaseline(
      await timedExport(productsTenant.tenantId, 'products', directory),
      await readProductPages(productsTenant.tenantId),
      sizes.products,
    );
    log(`exports: ${products.rows} products in ${products.seconds} s (page after page: ${products.baseline.seconds} s)`);
    return [suppliers, products];
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export function printExportFigures(figures: ExportFigure[]): void {
  console.log('\nExports (DynamoDB Local, the engine in process as npm start runs it), against reading the same rows page after page');
  console.table(
    figures.map((entry) => ({
      kind: entry.kind,
      rows: entry.rows,
      seconds: entry.seconds,
      'rows/s': entry.rowsPerSecond,
      'pages s': entry.baseline.seconds,
      'over pages': `${entry.ratio}x`,
      'file KB': entry.fileKB,
      'peak RSS MB': entry.peakRssMB,
      target: entry.target,
      met: entry.met ? 'yes' : 'NO',
    })),
  );
}

async function main(): Promise<void> {
  const [suppliers = 100_000, products = 20_000] = process.argv.slice(2).map(Number);
  const store = await benchStore();
  try {
    const figures = await runExportBench((line) => console.log(line), { suppliers, products });
    printExportFigures(figures);
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
