/**
 * `npm run job -- <name> [options] [--private-store]`: run a scheduled job of the manifest
 * once against the running `npm start`'s store (or, with `--private-store` and no API on
 * $DATA_DIR, a DynamoDB Local of its own there; local/store.ts), as its Lambda does on its
 * schedule; a job's options are its own (its handler file's `command`, see local/jobs.ts).
 *
 *   npm run job -- sales-rollup                     every complete day with pending sales
 *   npm run job -- sales-rollup --date 2026-11-20   only that day
 */
import { findJob, loadJob, manifestJobs, runJobOnce, UnknownJob } from '../local/jobs';
import { connectLocalStore, PRIVATE_STORE_FLAG } from '../local/store';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const [name, ...args] = argv.filter((arg) => arg !== PRIVATE_STORE_FLAG);
  const job = await findJob(manifestJobs, loadJob, name);
  const store = await connectLocalStore({ privateStore: argv.includes(PRIVATE_STORE_FLAG) });
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
