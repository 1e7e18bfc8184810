import { formatScaled } from '../domain/decimal';
import type { DomainEvent } from '../domain/events';
import { derivedEvent } from '../events/derived';
import { STOCK_LOW_THRESHOLD_PLACES } from '../tenants/model';
import { crossedBelow, type CoverageReading } from './model';

/**
 * `product.stock_low` (lib/events/catalogue, DERIVED_EVENTS): a stock movement took a
 * product's coverage from at or above the threshold its tenant set (`stockLowThresholdDays`,
 * lib/tenants; null, the default, is off) to below it. Written in the movement's own
 * transaction (lib/inventory/repository, `recordMovement`), so it exists if and only if
 * the movement committed: a refused movement (409) publishes nothing.
 *
 * Coverage is the dashboard's, where coverage is kept: on hand over every warehouse x
 * STOCK_LOW_WINDOW_DAYS / units sold in that window's complete business days before today,
 * in hundredths of a day rounded once, half to even (./model, `crossedBelow`). The units
 * sold come from the product item's `coverageSold` (lib/inventory/coverage-repository), which the
 * movement reads anyway and the daily job keeps current. Hence:
 *
 * - once below, later movements that leave it below publish nothing (no repeat per sale);
 *   one that brings it back to or above the threshold re-arms it;
 * - a product without sales in the window has no coverage (it never runs out at that pace)
 *   and publishes nothing, nor does one the index never saw (no `coverageSold`);
 * - the threshold compares with the coverage the dashboard shows: 9.995 days is shown, and
 *   compared, as 10.00;
 * - a crossing the daily job makes (its window's units sold grow) publishes nothing: the
 *   next movement finds the product already below.
 */

/**
 * The event of a movement (in `warehouseId`, at `timestamp`: its audit entry's instant) when
 * it crossed below the threshold, else none. Its data: the product's id and SKU, the tenant,
 * the movement's warehouse, and the coverage left and the threshold crossed, in days, as
 * exact decimal strings ("3.33", "0", "10").
 */
export function stockLowEvent(
  product: { tenantId: string; id: string; sku: string },
  warehouseId: string,
  reading: CoverageReading,
  timestamp: string,
): DomainEvent | undefined {
  const coverage = crossedBelow(reading);
  if (coverage === null || reading.threshold === null) return undefined;
  return derivedEvent(
    'product.stock_low',
    product,
    { sku: product.sku, warehouseId, coverageDays: formatScaled(coverage, 2), thresholdDays: formatScaled(reading.threshold, STOCK_LOW_THRESHOLD_PLACES) },
    timestamp,
  );
}
