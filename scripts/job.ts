/**
 * `npm run job -- <name> [options]`: run a scheduled job of the manifest once against the
 * local store (also while `npm start` runs), as its Lambda does on its schedule; a job's
 * options are its own (its handler file's `command`, see local/jobs.ts).
 *
 *   npm run job -- sales-rollup                     every complete day with pending sales
 *   npm run job -- sales-rollup --date 2026-11-20   only that day
 */
import { findJob, loadJob, manifestJobs, runJobOnce, UnknownJob } from '../local/jobs';
import { connectLocalStore } from '../local/store';

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const job = await findJob(manifestJobs, loadJob, name);
  const store = await connectLocalStore();
  try {
    console.log(await runJobOnce(job, loadJob, args, Date.now()));
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UnknownJob) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
