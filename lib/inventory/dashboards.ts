import type { Principal } from '../auth/principal';
import { config } from '../config';
import { listWarehouses, readProductsWithSales } from '../db/repositories/inventory';
import { addDays, dayOf } from '../domain/days';
import { unitsBetween } from '../db/sales-series';
import { divideRounded, QUANTITY_PLACES, scaledToNumber, VALUE_PLACES } from '../domain/decimal';
import { dashboardQuantity, moneyOf } from './rounding';
import type { CoverageInput, CoverageItem, WarehouseSummary } from './schemas';
import { cursorRefused } from '../domain/cursor';
import { openPageCursor, sealPageCursor, type Page } from '../pages';

/**
 * Stock coverage per product. One Query reads each product and its rolled-up sales (a
 * fixed-size item), so the cost does not grow with the number of sales.
 *
 * averageDailySales = units sold in the `days` complete business days before today / days;
 * estimatedCoverageDays = available / average, null without sales. Ordered by coverage,
 * shortest first (what runs out first), products without sales last, then by SKU.
 */
export async function stockCoverage(principal: Principal, days: number, nowMs: number): Promise<CoverageItem[]> {
  const today = dayOf(nowMs, config().BUSINESS_TIME_ZONE);
  const from = addDays(today, -days);
  const to = addDays(today, -1);

  const coverage = (await readProductsWithSales(principal.tenantId)).map(({ product, sales }): CoverageItem => {
    // Exact ratios of exact integers (thousandths), each rounded once, half to even, to 2 decimals.
    const sold = BigInt(sales ? unitsBetween(sales, from, to) : 0);
    return {
      productId: product.id,
      sku: product.sku,
      name: product.name,
      availableQuantity: dashboardQuantity(product.onHand),
      // sold / days, in units: sold thousandths x 100 / (days x 1000) hundredths.
      averageDailySales: scaledToNumber(divideRounded(sold * 100n, BigInt(days) * 10n ** BigInt(QUANTITY_PLACES)), 2),
      // available / (sold / days) = onHand x days / sold (both in thousandths).
      estimatedCoverageDays: sold > 0n ? scaledToNumber(divideRounded(product.onHand * BigInt(days) * 100n, sold), 2) : null,
    };
  });
  return coverage.sort((a, b) => compareCoverage(keyOf(a), keyOf(b)));
}

/** Where a coverage page ends: the last item's place in the order (coverage, null last; SKU; id). */
const positionOf = (item: CoverageItem): Record<string, string> => ({ c: item.estimatedCoverageDays === null ? 'null' : String(item.estimatedCoverageDays), s: item.sku, p: item.productId });

/** The order of the dashboard as one comparison: coverage (null last), then SKU, then id. */
function compareCoverage(a: { c: number | null; s: string; p: string }, b: { c: number | null; s: string; p: string }): number {
  const byCoverage = (a.c ?? Number.POSITIVE_INFINITY) - (b.c ?? Number.POSITIVE_INFINITY);
  if (byCoverage !== 0 && !Number.isNaN(byCoverage)) return byCoverage;
  return a.s < b.s ? -1 : a.s > b.s ? 1 : a.p < b.p ? -1 : a.p > b.p ? 1 : 0;
}

const keyOf = (item: CoverageItem) => ({ c: item.estimatedCoverageDays, s: item.sku, p: item.productId });

/**
 * A page of the coverage dashboard: the items after the cursor's place in the order, as the
 * data stands now (a movement between two pages moves its product, as it should). Bounded
 * answer; the read behind it is still every product with its series (issue 15 replaces it
 * with packed, precomputed reads).
 */
export async function coveragePage(principal: Principal, input: CoverageInput, nowMs: number): Promise<Page<CoverageItem>> {
  const scope = { tenantId: principal.tenantId, filters: { list: 'coverage', days: String(input.days) } };
  const after = await openPageCursor(input.cursor, scope);
  const afterKey = after && { c: after.c === 'null' ? null : Number(after.c), s: String(after.s), p: String(after.p) };
  if (afterKey && afterKey.c !== null && !Number.isFinite(afterKey.c)) throw cursorRefused();
  const all = await stockCoverage(principal, input.days, nowMs);
  const rest = afterKey ? all.filter((item) => compareCoverage(keyOf(item), afterKey) > 0) : all;
  const items = rest.slice(0, input.limit);
  const last = items.at(-1);
  return { items, nextCursor: await sealPageCursor(rest.length > input.limit && last ? positionOf(last) : undefined, scope) };
}

/** Stock per warehouse from the totals every movement maintains; no stock item is read. */
export async function stockByWarehouse(principal: Principal): Promise<WarehouseSummary[]> {
  return (await listWarehouses(principal.tenantId))
    .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR') || a.id.localeCompare(b.id))
    .map((warehouse): WarehouseSummary => ({
      warehouseId: warehouse.id,
      warehouseName: warehouse.name,
      totalItems: dashboardQuantity(warehouse.totalItems),
      totalProducts: warehouse.totalProducts,
      totalValue: moneyOf(warehouse.totalValue, VALUE_PLACES),
    }));
}
