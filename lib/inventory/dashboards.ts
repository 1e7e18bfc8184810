import type { Principal } from '../auth/principal';
import { config } from '../config';
import { listWarehouses, readProductsWithSales } from '../db/repositories/inventory';
import { addDays, dayOf } from '../domain/days';
import { unitsBetween } from '../db/sales-series';
import { divideRounded, QUANTITY_PLACES, scaledToNumber, VALUE_PLACES } from '../domain/decimal';
import { dashboardQuantity, moneyOf } from './rounding';
import type { CoverageItem, WarehouseSummary } from './schemas';

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
  return coverage.sort(
    (a, b) =>
      (a.estimatedCoverageDays ?? Number.POSITIVE_INFINITY) - (b.estimatedCoverageDays ?? Number.POSITIVE_INFINITY) || a.sku.localeCompare(b.sku),
  );
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
