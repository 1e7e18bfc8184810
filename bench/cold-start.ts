/**
 * Bundle size and cold load time per function: each bundle built as the stack builds it,
 * then imported by at least 15 fresh Node processes; the median import time is compared
 * with a baseline bundle that only creates the DynamoDB document client. The baseline is
 * built with the same options (infra/bundling.ts), so it holds the SDK as every function
 * does: the DynamoDB client, the document client, the environment-only credential chain.
 * A difference over it is what the function's own code and other dependencies cost.
 *
 * Targets: no bundle over 450 KB; the authorizer within 10 ms of the baseline, every other
 * function within 25 ms.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { authorizer, jobs, routeList } from '../lib/routes';
import { bundle } from './support/bundling';

const run = promisify(execFile);
const OUT = join('bench', '.bundles');
const RUNS = 15;
export const MAX_BUNDLE_BYTES = 450 * 1024;

export interface ColdStartFigure {
  name: string;
  bytes: number;
  medianMs: number;
  overBaselineMs: number;
  targetMs: number | null;
  met: boolean;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Import time of a bundle in a fresh process, measured inside it (process start excluded). */
export async function importTime(file: string): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(`./${file}`)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '--no-warnings', '-e', script], { env: { ...process.env, NODE_OPTIONS: '' } });
  return Number(stdout);
}

export async function runColdStartBench(log: (line: string) => void): Promise<ColdStartFigure[]> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const baselineEntry = join(OUT, 'baseline.ts');
  writeFileSync(
    baselineEntry,
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => ({ statusCode: 200, body: '' });\n",
    { flag: 'w' },
  );
  const entries = [
    { name: 'baseline (DynamoDB document client, bundled)', entry: baselineEntry, target: null as number | null },
    { name: 'authorizer', entry: authorizer.handler, target: 10 },
    ...routeList().map((route) => ({ name: `${route.method} ${route.path}`, entry: route.handler, target: 25 })),
    ...Object.values(jobs).map((job) => ({ name: `job ${job.name}`, entry: job.handler, target: 25 })),
  ];

  const bundles = [];
  for (const [index, entry] of entries.entries()) bundles.push({ ...entry, ...(await bundle(entry.entry, OUT, `f${index}`)) });
  log(`cold start: ${bundles.length} bundles built; ${RUNS} rounds of fresh imports ...`);

  // Rounds interleave every bundle, so a busy moment of the machine hits all of them alike;
  // each function is compared with the baseline of the same round.
  const times = bundles.map(() => [] as number[]);
  for (let round = 0; round < RUNS; round += 1) {
    for (const [index, entry] of bundles.entries()) (times[index] as number[]).push(await importTime(entry.file));
  }
  const baseline = times[0] as number[];
  const figures = bundles.map((entry, index): ColdStartFigure => {
    const own = times[index] as number[];
    const overBaselineMs = median(own.map((value, round) => value - (baseline[round] as number)));
    return {
      name: entry.name,
      bytes: entry.bytes,
      medianMs: Math.round(median(own) * 10) / 10,
      overBaselineMs: Math.round(overBaselineMs * 10) / 10,
      targetMs: entry.target,
      met: entry.bytes <= MAX_BUNDLE_BYTES && (entry.target === null || overBaselineMs <= entry.target),
    };
  });
  rmSync(OUT, { recursive: true, force: true });
  return figures;
}
