import { callerId, type Caller } from '../auth/principal';
import { config } from '../config';
import { listWarehouses, readProductsWithSales } from './repository';
import { listAllCompanies } from '../companies/repository';
import { addDays, dayOf } from '../domain/days';
import { unitsBetween } from './sales-series';
import { divideRounded, QUANTITY_PLACES, scaledToNumber, VALUE_PLACES } from '../domain/decimal';
import { readCoverageIndexPage } from './coverage-repository';
import { coverageHundredths, coverageOrder, isIndexedCoverageDays, type CoverageSource } from './model';
import { dashboardQuantity, moneyOf } from './rounding';
import type { CoverageInput, CoverageItem, WarehouseSummary } from './schemas';
import { cursorRefused } from '../domain/cursor';
import { openPageCursor, sealPageCursor, type Page } from '../pages';
import { consumeLimit, type ScopedLimit } from '../rate-limit';

/**
 * One dashboard item and its place in the order (model: coverageOrder), from the product and
 * the units it sold in the window: the same computation for the full read and the index.
 *
 * averageDailySales = units sold in the `days` complete business days before today / days;
 * estimatedCoverageDays = available / average, null without sales.
 */
export function coverageItem(product: CoverageSource, sold: bigint, days: number): { item: CoverageItem; order: string } {
  const hundredths = coverageHundredths(product.onHand, sold, days);
  return {
    item: {
      productId: product.id,
      sku: product.sku,
      name: product.name,
      availableQuantity: dashboardQuantity(product.onHand),
      // sold / days, in units: sold thousandths x 100 / (days x 1000) hundredths.
      averageDailySales: scaledToNumber(divideRounded(sold * 100n, BigInt(days) * 10n ** BigInt(QUANTITY_PLACES)), 2),
      estimatedCoverageDays: hundredths === null ? null : scaledToNumber(hundredths, 2),
    },
    order: coverageOrder(product, sold, days),
  };
}

/**
 * Every product's coverage item in the dashboard's order, from a full read: one Query of each
 * product and its rolled-up sales (a fixed-size item), so the cost grows with the catalog,
 * not with the number of sales. The answer for a `days` without an index, and while the
 * index is not current (lib/inventory/coverage-repository).
 */
export async function stockCoverage(principal: Caller, days: number, nowMs: number): Promise<{ item: CoverageItem; order: string }[]> {
  const today = dayOf(nowMs, config().BUSINESS_TIME_ZONE);
  const from = addDays(today, -days);
  const to = addDays(today, -1);
  const coverage = (await readProductsWithSales(principal.tenantId)).map(({ product, sales }) =>
    coverageItem(product, BigInt(sales ? unitsBetween(sales, from, to) : 0), days),
  );
  return coverage.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
}

/**
 * A page of the coverage dashboard: the items after the cursor's place in the order, as the
 * data stands now (a movement between two pages moves its product, as it should). For an
 * indexed `days` (INDEXED_COVERAGE_DAYS) whose index a run of the job completed, one Query of
 * the page (its sales figures of the last day completed, `stale` before today's); else
 * the full read, cut to the page, which takes a slot of the user's `fullReads` limit first
 * (undefined: none, for the benchmarks that measure the read itself). Both give the same items in the same order, and a cursor
 * is a place in that order, so a walk may cross from one to the other.
 */
/**
 * A page of the dashboard and the business day whose sales its figures count: today, or on
 * a stale index (the daily job has not completed today's) the last day it completed.
 */
export type CoveragePage = Page<CoverageItem> & { figuresOf: string; stale: boolean };

/** The answer's headers that say which day's sales a page counts, and whether the daily job has not completed today's. */
export const coverageFiguresHeaders = (page: CoveragePage): Record<string, string> => ({
  'Coverage-Figures-Date': page.figuresOf,
  'Coverage-Stale': String(page.stale),
});

export async function coveragePage(principal: Caller, input: CoverageInput, nowMs: number, fullReads: ScopedLimit | undefined): Promise<CoveragePage> {
  const scope = { tenantId: principal.tenantId, filters: { list: 'coverage', days: String(input.days) } };
  const after = await openPageCursor(input.cursor, scope);
  const afterOrder = after?.o;
  if (after && (afterOrder === undefined || !COVERAGE_ORDER.test(afterOrder))) throw cursorRefused();
  const today = dayOf(nowMs, config().BUSINESS_TIME_ZONE);

  const indexed = isIndexedCoverageDays(input.days)
    ? await readCoverageIndexPage(principal.tenantId, input.days, { today, limit: input.limit, ...(afterOrder ? { afterOrder } : {}) })
    : null;
  if (indexed)
    return {
      items: indexed.rows.map(({ product, sold }) => coverageItem(product, sold, input.days).item),
      nextCursor: await sealPageCursor(indexed.lastOrder === undefined ? undefined : { o: indexed.lastOrder }, scope),
      figuresOf: indexed.figuresOf,
      stale: indexed.stale,
    };

  // The full read grows with the catalog (about 0.4 read units a product): each user's are limited (the manifest's).
  if (fullReads) await consumeLimit(fullReads, { ip: '', userId: callerId(principal) }, nowMs);
  const all = await stockCoverage(principal, input.days, nowMs);
  const rest = afterOrder === undefined ? all : all.filter((entry) => entry.order > afterOrder);
  const page = rest.slice(0, input.limit);
  const last = page.at(-1);
  return {
    items: page.map((entry) => entry.item),
    nextCursor: await sealPageCursor(rest.length > input.limit && last ? { o: last.order } : undefined, scope),
    figuresOf: today,
    stale: false,
  };
}

/** What a cursor's place must look like (coverageOrder): a sealed cursor of another kind is refused, not read. */
const COVERAGE_ORDER = /^(F\d{2}\d+|N)#[^#]+#[0-9a-f-]{36}$/;

/** Stock per warehouse from the totals every movement maintains; no stock item is read. */
export async function stockByWarehouse(principal: Caller, companyId?: string): Promise<WarehouseSummary[]> {
  const [warehouses, companies] = await Promise.all([listWarehouses(principal.tenantId), listAllCompanies(principal.tenantId)]);
  const methods = new Map(companies.map((company) => [company.id, company.costMethod]));
  return warehouses
    .filter((warehouse) => companyId === undefined || warehouse.companyId === companyId)
    .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR') || a.id.localeCompare(b.id))
    .map((warehouse): WarehouseSummary => {
      // Both values are maintained with every movement: the company's method picks which one it shows.
      const costMethod = (warehouse.companyId === null ? undefined : methods.get(warehouse.companyId)) ?? 'WEIGHTED_AVERAGE';
      return {
        warehouseId: warehouse.id,
        warehouseName: warehouse.name,
        companyId: warehouse.companyId,
        costMethod,
        totalItems: dashboardQuantity(warehouse.totalItems),
        totalProducts: warehouse.totalProducts,
        totalValue: moneyOf(costMethod === 'REPLACEMENT' ? warehouse.totalReplacementValue : warehouse.totalValue, VALUE_PLACES),
      };
    });
}
