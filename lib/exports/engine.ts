import { lostAuthority } from '../background/authority';
import { endPendingJob } from '../background/pending-jobs';
import { config } from '../config';
import { CSV_BOM, csvRow } from '../csv/write';
import { readAuditPage } from '../audit/repository';
import {
  failExportJob,
  findExportJob,
  finishExportJob,
  readProductsById,
  readStockQuantities,
  readSupplierRun,
  recordExportRows,
  startExportJob,
} from './repository';
import { listWarehouses, readHistoryPage } from '../inventory/repository';
import { listProductPage } from '../inventory/product-repository';
import { addDays, dayStartMs } from '../domain/days';
import type { Warehouse } from '../inventory/model';
import { readCategoryNames } from '../categories/repository';
import { AUDIT_HEADER, auditCells, MOVEMENT_HEADER, movementCells, productCells, productHeader, SUPPLIER_HEADER, supplierCells, type Cells } from './columns';
import { exportRole, MAX_EXPORT_ROWS, type ExportJob } from './model';

/**
 * The export's one pass: the same code in the deployed worker (one SQS message per job,
 * functions/exports/export-worker.ts) and in `npm start` (local/background.ts). It takes the job
 * (`queued` or a `running` one whose run was cut short: it starts over and overwrites the
 * file), reads its source page by page through the repositories the list routes read (no
 * Scan), writes each page's rows to the file as it goes (a multipart upload deployed, so a
 * million rows never sit in memory), and marks it `done` with its row count, or `failed`.
 */

/** Where a job's file is written, a chunk at a time; `end` makes it whole, `abort` leaves nothing. */
export interface ExportWriter {
  write(text: string): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

export interface ExportFiles {
  create(job: Pick<ExportJob, 'tenantId' | 'id'>): ExportWriter;
}

export interface ExportDeps {
  now: () => number;
  files: ExportFiles;
  /** The most data rows (default MAX_EXPORT_ROWS). */
  maxRows?: number;
}

/** Rows read per page: a Query and a few BatchGetItems, well under DynamoDB's 1 MB a response. */
const PAGE = 500;
/** Product rows per page: each reads one balance per warehouse (BatchGetItem, 100 keys a call). */
const PRODUCT_PAGE = 100;
/** The job's `rows` is brought up to date every this many rows, for GET /exports/{id}. */
const PROGRESS_EVERY = 10_000;
/** A warehouse is a column of the products' file: beyond this many the file would be unreadable, and each page would read too many balances. */
export const MAX_WAREHOUSE_COLUMNS = 200;

/** Why a job cannot be exported, in words for its `failure`. */
export class ExportRefused extends Error {}

/** The job is no longer running (failed by its user's removal or demotion, or its tenant's close): the run stops and keeps no file. */
class ExportStopped extends Error {}

interface Source {
  header: Cells;
  pages: AsyncIterable<Cells[]>;
}

/** A job's period as sort-key bounds of the time-ordered lists (`occurredAt#id`): its first day's first instant to its last day's last, in the business time zone. */
export function periodBounds(from: string, to: string, timeZone: string): { fromSk: string; toSk: string } {
  return { fromSk: new Date(dayStartMs(from, timeZone)).toISOString(), toSk: `${new Date(dayStartMs(addDays(to, 1), timeZone) - 1).toISOString()}#~` };
}

const byName = (a: Pick<Warehouse, 'name'>, b: Pick<Warehouse, 'name'>) => a.name.localeCompare(b.name, 'pt-BR');

async function* supplierPages(tenantId: string): AsyncIterable<Cells[]> {
  let afterSk: string | undefined;
  do {
    const page = await readSupplierRun(tenantId, { limit: PAGE, ...(afterSk === undefined ? {} : { afterSk }) });
    yield page.suppliers.map(supplierCells);
    afterSk = page.lastSk;
  } while (afterSk !== undefined);
}

async function productSource(tenantId: string): Promise<Source> {
  const warehouses = (await listWarehouses(tenantId)).sort(byName);
  if (warehouses.length > MAX_WAREHOUSE_COLUMNS)
    throw new ExportRefused(`The tenant has ${warehouses.length} warehouses: a products export has one column per warehouse, ${MAX_WAREHOUSE_COLUMNS} at most`);
  const warehouseIds = warehouses.map((warehouse) => warehouse.id);
  const categories = await readCategoryNames(tenantId);
  /** A page's rows: its products, then the balances of those that have stock (a product with none on hand has none in any warehouse). */
  async function rowsOf(listings: readonly { id: string }[]): Promise<Cells[]> {
    const products = await readProductsById(
      tenantId,
      listings.map((listing) => listing.id),
    );
    const stocked = [...products.values()].filter((product) => product.onHand !== 0n).map((product) => product.id);
    const stock = stocked.length === 0 ? new Map<string, bigint>() : await readStockQuantities(tenantId, stocked, warehouseIds);
    return listings.flatMap((listing) => {
      const product = products.get(listing.id);
      return product
        ? [
            productCells(
              product,
              warehouseIds.map((warehouseId) => stock.get(`${listing.id}#${warehouseId}`) ?? 0n),
              product.categoryId === null ? null : (categories.get(product.categoryId) ?? null),
            ),
          ]
        : [];
    });
  }
  async function* pages(): AsyncIterable<Cells[]> {
    // The next page's listing is read while this page's products and balances are.
    let listing = await listProductPage(tenantId, 'ALL', { limit: PRODUCT_PAGE });
    for (;;) {
      const after = listing.lastSk;
      const [rows, next] = await Promise.all([
        rowsOf(listing.items),
        after === undefined ? undefined : listProductPage(tenantId, 'ALL', { limit: PRODUCT_PAGE, afterSk: after }),
      ]);
      yield rows;
      if (!next) return;
      listing = next;
    }
  }
  return { header: productHeader(warehouses.map((warehouse) => warehouse.name)), pages: pages() };
}

async function historySource(tenantId: string, from: string, to: string): Promise<Source> {
  const warehouseNames = new Map((await listWarehouses(tenantId)).map((warehouse) => [warehouse.id, warehouse.name]));
  const products = new Map<string, { sku: string; name: string }>();
  const bounds = periodBounds(from, to, config().BUSINESS_TIME_ZONE);
  async function* pages(): AsyncIterable<Cells[]> {
    let afterSk: string | undefined;
    do {
      const page = await readHistoryPage(tenantId, { scope: {}, ...bounds, limit: PAGE, ...(afterSk === undefined ? {} : { afterSk }) });
      const unknown = [...new Set(page.movements.map((movement) => movement.productId))].filter((id) => !products.has(id));
      if (unknown.length > 0) for (const [id, product] of await readProductsById(tenantId, unknown)) products.set(id, product);
      yield page.movements.map((movement) => movementCells(movement, products.get(movement.productId), warehouseNames.get(movement.warehouseId)));
      afterSk = page.nextSk;
    } while (afterSk !== undefined);
  }
  return { header: MOVEMENT_HEADER, pages: pages() };
}

function auditSource(tenantId: string, from: string, to: string): Source {
  const bounds = periodBounds(from, to, config().BUSINESS_TIME_ZONE);
  async function* pages(): AsyncIterable<Cells[]> {
    let after: Record<string, string> | undefined;
    do {
      // 100 a page: the whole trail's origins come in one ranged Query beside them (lib/audit/repository).
      const page = await readAuditPage({ tenantId }, { filter: {}, ...bounds, limit: 100, ...(after ? { after } : {}) });
      yield page.entries.map(auditCells);
      after = page.next;
    } while (after !== undefined);
  }
  return { header: AUDIT_HEADER, pages: pages() };
}

async function sourceOf(job: ExportJob): Promise<Source> {
  const period = () => {
    if (job.from === null || job.to === null) throw new Error(`a ${job.kind} export has no period`);
    return { from: job.from, to: job.to };
  };
  switch (job.kind) {
    case 'suppliers':
      return { header: SUPPLIER_HEADER, pages: supplierPages(job.tenantId) };
    case 'products':
      return productSource(job.tenantId);
    case 'stock-history':
      return historySource(job.tenantId, period().from, period().to);
    case 'audit':
      return auditSource(job.tenantId, period().from, period().to);
  }
}

/**
 * Run a job to its end: `done`, or `failed` with why (too many rows, too many warehouses). An
 * error of the store or the storage is thrown, the file aborted and the job left `running`, for
 * the queue to run it again (`failExport` once it gives up). Nothing when the job is unknown, or
 * done or failed already.
 */
export async function runExport(ref: { tenantId: string; id: string }, deps: ExportDeps): Promise<void> {
  const job = await findExportJob(ref.tenantId, ref.id);
  if (!job || (job.status !== 'queued' && job.status !== 'running')) return;
  const nowIso = () => new Date(deps.now()).toISOString();
  // Before anything is read: the job runs only while its tenant is active and its user still may export this kind (lib/background/authority).
  const lost = await lostAuthority({ kind: 'tenant', tenantId: job.tenantId, userId: job.createdBy.id, role: exportRole(job.kind) });
  if (lost !== null) {
    await failExportJob(job, lost, 0, nowIso());
    await endPendingJob(job.tenantId, job.id);
    return;
  }
  if (!(await startExportJob(job, nowIso()))) return;
  const maxRows = deps.maxRows ?? MAX_EXPORT_ROWS;
  const writer = deps.files.create(job);
  let rows = 0;
  try {
    const source = await sourceOf(job);
    await writer.write(CSV_BOM + csvRow(source.header));
    for await (const page of source.pages) {
      if (rows + page.length > maxRows) throw new ExportRefused(`The export has more than ${maxRows.toLocaleString('en')} rows: choose a shorter period`);
      if (page.length > 0) await writer.write(page.map((cells) => csvRow(cells)).join(''));
      const before = rows;
      rows += page.length;
      // The job failed meanwhile (its user removed or demoted, its tenant closed: lib/background): no file is kept.
      if (Math.floor(rows / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY) && !(await recordExportRows(job, rows))) throw new ExportStopped();
    }
    await writer.end();
  } catch (error) {
    await writer.abort();
    if (error instanceof ExportStopped) return;
    if (!(error instanceof ExportRefused)) throw error;
    await failExportJob(job, error.message, rows, nowIso());
    await endPendingJob(job.tenantId, job.id);
    return;
  }
  await finishExportJob(job, rows, nowIso());
  await endPendingJob(job.tenantId, job.id);
}

/** The queue gave up on a job (its run kept failing): `failed`, for the user to start another. */
export async function failExport(ref: { tenantId: string; id: string }, nowMs: number): Promise<void> {
  await failExportJob(ref, 'The export could not be written: start it again', 0, new Date(nowMs).toISOString());
  await endPendingJob(ref.tenantId, ref.id);
}

/** The export queue's message: the job to run. */
export interface ExportMessage {
  type: 'export-run';
  tenantId: string;
  exportId: string;
}
