import { jobs } from '../lib/routes';
import { runSalesRollup } from '../lib/jobs/sales-rollup';

/** Milliseconds from `nowMs` to the next time a daily UTC schedule fires. */
export function msUntilNext(schedule: { hour: number; minute: number }, nowMs: number): number {
  const next = new Date(nowMs);
  next.setUTCHours(schedule.hour, schedule.minute, 0, 0);
  if (next.getTime() <= nowMs) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - nowMs;
}

/**
 * The jobs' schedules, run locally by `npm start` as EventBridge runs them on AWS; the
 * roll-up also runs once at start, to catch up on the days the laptop was off.
 */
export function startSchedules(log: (line: string) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    runSalesRollup({ nowMs: Date.now() })
      .then((result) => log(`[job] ${jobs.salesRollup.name}: ${result.counters} daily counters of ${result.products} products rolled up`))
      .catch((error: unknown) => log(`[job] ${jobs.salesRollup.name} failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  const arm = () => {
    timer = setTimeout(() => {
      run();
      arm();
    }, msUntilNext(jobs.salesRollup.schedule, Date.now()));
    timer.unref();
  };
  run();
  arm();
  return () => clearTimeout(timer);
}
