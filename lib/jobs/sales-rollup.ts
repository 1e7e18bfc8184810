import { config } from '../config';
import { findPendingCounters, rollUpProduct } from '../db/repositories/sales-rollup';
import { dayOf } from '../domain/days';
import { logger } from '../log';

export interface RollupResult {
  /** Complete days before this one were considered (today in the business time zone). */
  today: string;
  counters: number;
  products: number;
}

/**
 * The scheduled sales roll-up. Every SALE movement adds to its day's counter and marks it
 * pending; this job folds every pending counter of a complete business day (before today,
 * or only `day`) into its product's fixed-size sales series, which the coverage dashboard
 * reads. It catches up on any number of missed days and on sales back-dated into days that
 * were already rolled up, and running it twice changes nothing.
 */
export async function runSalesRollup(options: { nowMs: number; day?: string }): Promise<RollupResult> {
  const today = dayOf(options.nowMs, config().BUSINESS_TIME_ZONE);
  if (options.day !== undefined && options.day >= today) throw new Error(`${options.day} is not a complete business day yet (today is ${today})`);

  const pending = await findPendingCounters(options.day ? { day: options.day } : { beforeDay: today });
  const byProduct = new Map<string, { tenantId: string; productId: string; days: Set<string> }>();
  for (const counter of pending) {
    const key = `${counter.tenantId}#${counter.productId}`;
    const group = byProduct.get(key) ?? { tenantId: counter.tenantId, productId: counter.productId, days: new Set<string>() };
    group.days.add(counter.day);
    byProduct.set(key, group);
  }

  let counters = 0;
  for (const group of byProduct.values()) {
    counters += await rollUpProduct(group.tenantId, group.productId, [...group.days].sort());
  }
  const result = { today, counters, products: byProduct.size };
  logger.info('sales roll-up done', { ...result });
  return result;
}
