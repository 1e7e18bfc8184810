/**
 * `npm run job -- <name> [options]`: run a scheduled job once against the local store (also
 * while `npm start` runs), exactly as its Lambda does on its schedule.
 *
 *   npm run job -- sales-rollup                     every complete day with pending sales
 *   npm run job -- sales-rollup --date 2026-11-20   only that day
 */
import { parseArgs } from 'node:util';
import { isDay } from '../lib/inventory/days';
import { runSalesRollup } from '../lib/jobs/sales-rollup';
import { connectLocalStore } from '../local/store';

const jobs: Record<string, { summary: string; run: (args: string[]) => Promise<void> }> = {
  'sales-rollup': {
    summary: "roll each complete day's sales up for the coverage dashboard [--date YYYY-MM-DD]",
    run: async (args) => {
      const { values } = parseArgs({ args, options: { date: { type: 'string' } }, strict: true });
      if (values.date !== undefined && !isDay(values.date)) throw new Error(`--date must be a day as YYYY-MM-DD, not '${values.date}'`);
      const result = await runSalesRollup({ nowMs: Date.now(), ...(values.date ? { day: values.date } : {}) });
      console.log(`sales-rollup: ${result.counters} daily counters of ${result.products} products rolled up (days before ${result.today})`);
    },
  },
};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const job = name ? jobs[name] : undefined;
  if (!job) {
    const known = Object.entries(jobs).map(([jobName, entry]) => `  ${jobName}  ${entry.summary}`);
    console.error(`usage: npm run job -- <name> [options]\njobs:\n${known.join('\n')}`);
    process.exit(2);
  }
  const store = await connectLocalStore();
  try {
    await job.run(args);
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
