import type { Principal } from '../auth/principal';
import { config } from '../config';
import { listWarehouses, readProductsWithSales } from '../db/repositories/inventory';
import { addDays, dayOf } from '../domain/days';
import { round2, roundMoney } from './rounding';
import { decodeUnits, unitsBetween, type SalesSeries } from '../db/sales-series';

export interface CoverageItem {
  productId: string;
  sku: string;
  name: string;
  availableQuantity: number;
  averageDailySales: number;
  estimatedCoverageDays: number | null;
}

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

  const items = await readProductsWithSales(principal.tenantId);
  const series = new Map<string, SalesSeries>();
  for (const item of items) {
    if (item.type === 'ProductSales') {
      series.set(item.productId as string, { through: item.through as string, units: decodeUnits(item.units as Uint8Array) });
    }
  }
  const coverage = items
    .filter((item) => item.type === 'Product')
    .map((item): CoverageItem => {
      const productId = item.id as string;
      const available = Number(item.onHand ?? 0);
      const sold = series.has(productId) ? unitsBetween(series.get(productId) as SalesSeries, from, to) : 0;
      const average = sold / days;
      return {
        productId,
        sku: item.sku as string,
        name: item.name as string,
        availableQuantity: round2(available),
        averageDailySales: round2(average),
        estimatedCoverageDays: average > 0 ? round2(available / average) : null,
      };
    });
  return coverage.sort(
    (a, b) =>
      (a.estimatedCoverageDays ?? Number.POSITIVE_INFINITY) - (b.estimatedCoverageDays ?? Number.POSITIVE_INFINITY) || a.sku.localeCompare(b.sku),
  );
}

export interface WarehouseSummary {
  warehouseId: string;
  warehouseName: string;
  totalItems: number;
  totalProducts: number;
  totalValue: number;
}

/** Stock per warehouse from the totals every movement maintains; no stock item is read. */
export async function stockByWarehouse(principal: Principal): Promise<WarehouseSummary[]> {
  return (await listWarehouses(principal.tenantId))
    .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR') || a.id.localeCompare(b.id))
    .map((warehouse) => ({
      warehouseId: warehouse.id,
      warehouseName: warehouse.name,
      totalItems: round2(warehouse.totalItems),
      totalProducts: warehouse.totalProducts,
      totalValue: roundMoney(warehouse.totalValue),
    }));
}
