/**
 * `npm run bench`: every benchmark figure, measured in one run, printed as a table and
 * written to bench/results/latest.json. A benchmark, never part of `npm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { runScaleBench } from './scale';
import { benchStore } from './support/store';

async function main(): Promise<void> {
  const started = Date.now();
  const store = await benchStore();
  try {
    const scale = await runScaleBench((line) => console.log(line));
    console.log('\nScale (DynamoDB capacity units per read, ReturnConsumedCapacity on DynamoDB Local)');
    console.table(
      scale.map((entry) => ({
        figure: entry.name,
        [`small`]: `${entry.small.label}: ${entry.small.capacityUnits} CU / ${entry.small.requests} req`,
        [`large`]: `${entry.large.label}: ${entry.large.capacityUnits} CU / ${entry.large.requests} req`,
        ratio: entry.ratio,
        target: `<= ${entry.target}`,
        met: entry.met ? 'yes' : 'NO',
      })),
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/latest.json', `${JSON.stringify({ measuredAt: new Date().toISOString(), durationMs: Date.now() - started, scale }, null, 2)}\n`);
    console.log(`\nwritten to bench/results/latest.json in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
