import { config } from '../config';
import { type BadRecord, findPendingCounters, rollUpProduct } from './sales-rollup-repository';
import { mapConcurrently } from '../domain/concurrency';
import { dayOf } from '../domain/days';
import { invalidateCoverage, listCoverageTenants, refreshTenantCoverage } from '../inventory/coverage-repository';
import { logger } from '../log';

export interface RollupResult {
  /** Complete days before this one were considered (today in the business time zone). */
  today: string;
  /** The one day rolled up, when the run was asked for one (`--date`); otherwise every complete day before `today`. */
  day?: string;
  /** Pending counters rolled up. */
  counters: number;
  /** Products with at least one counter rolled up. */
  products: number;
  /**
   * Pending counters skipped because of a bad stored record (see `BadRecord`): 1 per bad
   * counter, plus every pending counter of a product whose sales series cannot be decoded.
   * They stay pending, each bad record is logged as an error, and the scheduled run fails
   * (functions/jobs/sales-rollup.ts) once everything else is rolled up.
   */
  skipped: number;
  /** The coverage index after the roll-up: tenants refreshed for `today` (one being deleted is left unmarked), and products whose entries moved. */
  coverage: { tenants: number; products: number };
}

/** Products rolled up at once: enough to overlap DynamoDB round trips, few enough not to be throttled. */
export const ROLLUP_CONCURRENCY = 16;

/** One error line per bad record: what identifies it and why, never the item itself. */
function logBadRecord(bad: BadRecord): void {
  const { record, tenantId, productId, day, reason, counters } = bad;
  logger.error('sales roll-up skipped a bad record', {
    record,
    tenantId,
    productId,
    ...(day === undefined ? {} : { day }),
    reason,
    countersLeftPending: counters,
  });
}

/** Tenants whose coverage index is refreshed at once (each is a few requests when nothing changed). */
export const REFRESH_CONCURRENCY = 4;

/**
 * The coverage index of every tenant with products, brought up to date for `today` and
 * marked current: the windows move every day, and the roll-up changes series.
 */
export async function refreshCoverageIndex(today: string, only?: readonly string[]): Promise<{ tenants: number; products: number }> {
  let products = 0;
  const tenants = (await listCoverageTenants()).filter((tenantId) => !only || only.includes(tenantId));
  await mapConcurrently(tenants, REFRESH_CONCURRENCY, async (tenantId) => {
    products += (await refreshTenantCoverage(tenantId, today)).updated;
  });
  return { tenants: tenants.length, products };
}

/**
 * The scheduled sales roll-up. Every SALE movement adds to its day's counter and marks it
 * pending; this job folds every pending counter of a complete business day (before today,
 * or only `day`) into its product's fixed-size sales series, which the coverage dashboard
 * reads. It catches up on any number of missed days and on sales back-dated into days that
 * were already rolled up, and running it twice changes nothing. Then it brings the coverage
 * index of every tenant up to date for today (refreshCoverageIndex).
 *
 * A bad stored record (a counter without a real day, product or numeric units; a series
 * that cannot be decoded) never stops the run: it is logged, left pending and counted in
 * `skipped`, and every other product is still rolled up.
 *
 * `only`: these tenants alone (tests that share a store with other files running the job).
 */
export async function runSalesRollup(options: { nowMs: number; day?: string; only?: readonly string[] }): Promise<RollupResult> {
  const today = dayOf(options.nowMs, config().BUSINESS_TIME_ZONE);
  if (options.day !== undefined && options.day >= today) throw new Error(`${options.day} is not a complete business day yet (today is ${today})`);

  const found = await findPendingCounters(options.day ? { day: options.day } : { beforeDay: today });
  const inScope = (record: { tenantId: string }) => !options.only || options.only.includes(record.tenantId);
  const pending = { counters: found.counters.filter(inScope), bad: found.bad.filter(inScope) };
  let skipped = 0;
  const skip = (bad: BadRecord) => {
    logBadRecord(bad);
    skipped += bad.counters;
  };
  pending.bad.forEach(skip);

  const byProduct = new Map<string, { tenantId: string; productId: string; days: Set<string> }>();
  for (const counter of pending.counters) {
    const key = `${counter.tenantId}#${counter.productId}`;
    const group = byProduct.get(key) ?? { tenantId: counter.tenantId, productId: counter.productId, days: new Set<string>() };
    group.days.add(counter.day);
    byProduct.set(key, group);
  }

  // A tenant's coverage index stops being current while its series change (the dashboard
  // reads in full meanwhile), and is refreshed after: lib/inventory/coverage-repository.
  const tenants = [...new Set([...byProduct.values()].map((group) => group.tenantId))];
  await mapConcurrently(tenants, ROLLUP_CONCURRENCY, invalidateCoverage);

  // Products are independent items: several are rolled up at once (each stays one
  // conditional transaction at a time, so nothing is counted twice).
  let counters = 0;
  let products = 0;
  await mapConcurrently([...byProduct.values()], ROLLUP_CONCURRENCY, async (group) => {
    const { rolled, bad } = await rollUpProduct(group.tenantId, group.productId, [...group.days].sort());
    counters += rolled;
    if (rolled > 0) products += 1;
    bad.forEach(skip);
  });
  await mapConcurrently(tenants, ROLLUP_CONCURRENCY, invalidateCoverage);

  const coverage = await refreshCoverageIndex(today, options.only);
  const result = { today, ...(options.day === undefined ? {} : { day: options.day }), counters, products, skipped, coverage };
  logger.info('sales roll-up done', { ...result });
  return result;
}
