import type { Count } from '../counts/model';
import { findCount, toLine } from '../counts/repository';
import { closeCount, openCountOnce, setLine } from '../counts/service';
import { getMany } from '../db/batch';
import { keys } from '../db/keys';
import { normalizeText } from '../db/name-order';
import { mapConcurrently } from '../domain/concurrency';
import { parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { uuidOf } from '../domain/hash';
import { AppError } from '../errors';
import { quantityFitsUnit, type Warehouse } from '../inventory/model';
import { listingOf, type ProductListing } from '../inventory/product-repository';
import { listWarehouses, toBalance } from '../inventory/repository';
import type { ImportJob, RowError } from './model';
import type { StockRow } from './schemas';

/**
 * Opening stock from a spreadsheet (import kind `stock`): each warehouse the file names gets a
 * count (lib/counts) of its own, opened by the import with an id made from the job's and the
 * warehouse's (so a step run again finds it); each row sets its product's line to the row's
 * quantity, with the row's unit cost for the units the close adds; the last step closes the
 * counts (uncounted products left as they are). The close applies each line's difference, so
 * importing the same file again changes nothing: every difference is then 0. A dry run reads the
 * balances and says which rows would change one.
 */

/** The outcome of a row: it changed (or would change) a balance, the balance already was that, or it is refused. */
export type StockOutcome = 'created' | 'existing' | RowError;

/** Lines set at once: they share their count's totals, so more at once would only retry. */
const LINE_WIDTH = 4;

/** The count an import opens in a warehouse: a UUID made from the job's id and the warehouse's. */
export const importCountId = (jobId: string, warehouseId: string): string => uuidOf(`${jobId}:${warehouseId}`);

interface Resolved {
  row: StockRow;
  line: number;
  warehouse?: Warehouse;
  product?: ProductListing;
}

/** The rows' warehouses (by name, as names compare) and products (by SKU, else GTIN), one BatchGetItem per 100 codes. */
async function resolve(tenantId: string, rows: { row: StockRow; line: number }[]): Promise<Resolved[]> {
  const byName = new Map((await listWarehouses(tenantId)).map((warehouse) => [normalizeText(warehouse.name), warehouse]));
  const sentinels = await getMany(
    rows.map(({ row }) => (row.sku === undefined ? keys.productGtin(tenantId, row.gtin ?? '') : keys.productSku(tenantId, row.sku))),
  );
  const products = await getMany(sentinels.map((sentinel) => keys.product(tenantId, typeof sentinel?.productId === 'string' ? sentinel.productId : '')));
  return rows.map(({ row, line }, index) => {
    const warehouse = byName.get(normalizeText(row.warehouse));
    const product = sentinels[index] && products[index] ? listingOf(products[index]) : undefined;
    return { row, line, ...(warehouse ? { warehouse } : {}), ...(product ? { product } : {}) };
  });
}

/** Why a resolved row cannot be imported, or undefined. */
function refusal({ row, line, warehouse, product }: Resolved): RowError | undefined {
  if (!warehouse) return { line, field: 'warehouse', message: `no warehouse is named "${row.warehouse}"` };
  if (!product)
    return row.sku === undefined
      ? { line, field: 'gtin', message: `no product has the GTIN ${row.gtin ?? ''}` }
      : { line, field: 'sku', message: `no product has the SKU ${row.sku}` };
  const quantity = parseScaled(row.quantity, QUANTITY_PLACES) ?? 0n;
  if (!quantityFitsUnit(quantity, product.unit))
    return { line, field: 'quantity', message: `must be a whole number: the product is counted in ${product.unit}, which takes no fractions` };
  return undefined;
}

/** What a step does with its valid rows: their outcomes, in order. */
export async function stockStep(job: ImportJob, rows: { row: StockRow; line: number }[], nowMs: number): Promise<StockOutcome[]> {
  const resolved = await resolve(job.tenantId, rows);
  if (job.dryRun) {
    const balances = await getMany(resolved.map(({ warehouse, product }) => keys.stock(job.tenantId, product?.id ?? '', warehouse?.id ?? '')));
    return resolved.map((entry, index) => {
      const refused = refusal(entry);
      if (refused) return refused;
      return toBalance(balances[index]).quantity === parseScaled(entry.row.quantity, QUANTITY_PLACES) ? 'existing' : 'created';
    });
  }
  // Each warehouse's count, opened once before its lines are set (a refusal is its rows').
  const counts = new Map<string, Count | AppError>();
  for (const { warehouse } of resolved) {
    if (!warehouse || counts.has(warehouse.id)) continue;
    try {
      const opened = await openCountOnce(
        job.tenantId,
        { id: importCountId(job.id, warehouse.id), warehouseId: warehouse.id, createdBy: job.createdBy.id, note: `Import ${job.fileName}` },
        nowMs,
      );
      counts.set(warehouse.id, opened);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      counts.set(warehouse.id, error);
    }
  }
  return mapConcurrently(resolved, LINE_WIDTH, async (entry): Promise<StockOutcome> => {
    const refused = refusal(entry);
    if (refused) return refused;
    const { row, line, warehouse, product } = entry as Required<Resolved>;
    const count = counts.get(warehouse.id);
    // A warehouse another count holds: its rows are refused with the API's words.
    if (!count || count instanceof AppError) return { line, field: 'warehouse', message: count?.message ?? 'the warehouse could not be counted' };
    try {
      if (count.status !== 'OPEN') {
        // The last step run again after it closed the counts: the line says what the row did.
        const [stored] = await getMany([keys.countLine(job.tenantId, count.id, product.id)]);
        const done = stored ? toLine(stored) : undefined;
        return done && done.counted !== done.systemAtCount ? 'created' : 'existing';
      }
      const unitCost = row.unitCost === undefined ? undefined : parseScaled(row.unitCost, UNIT_COST_PLACES);
      const set = await setLine(job, count.id, product.id, { counted: row.quantity }, nowMs, unitCost);
      return set.counted === set.systemAtCount ? 'existing' : 'created';
    } catch (error) {
      // A halted company, a line the product does not take: the row is refused with the API's words.
      if (error instanceof AppError && error.status < 500) return { line, field: 'warehouse', message: error.message };
      throw error;
    }
  });
}

/** Close the counts the job opened (the last step): each applies its differences once, and a close run again answers the closed count. */
export async function closeStockCounts(job: ImportJob, nowMs: number): Promise<void> {
  for (const warehouse of await listWarehouses(job.tenantId)) {
    const count = await findCount(job.tenantId, importCountId(job.id, warehouse.id));
    if (count && (count.status === 'OPEN' || count.status === 'CLOSING')) await closeCount(job, count.id, { uncounted: 'ignore' }, nowMs);
  }
}
