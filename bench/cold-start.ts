/**
 * Bundle size and cold load time per function, as a ratio to the floor: each bundle built as
 * the stack builds it (infra/bundling.ts), then imported in fresh Node processes, round after
 * round, every bundle once a round. The floor is a baseline bundle that only creates the
 * DynamoDB document client, built with the same options, so it holds the SDK as every
 * function does (the DynamoDB client, the document client, the environment-only credential
 * chain): no function can load faster than it.
 *
 * The figure of a function is the median, over the rounds, of its import time divided by the
 * baseline's import time of the same round. A ratio rather than a difference in ms: a busy or
 * slower machine stretches the baseline and the function alike, so the ratio moves less from
 * run to run and from machine to machine than a difference does, and it says how far a
 * function is from the best it could be. Interleaving keeps a busy moment from hitting only some
 * functions.
 *
 * Targets (TARGETS below): the authorizer within 1.15x of the floor (it runs before every
 * protected request), every route function within 1.5x, the median over them within 1.3x, and
 * no bundle of theirs over 400 KB: a person waits on each of these. The workers (queue
 * consumers and scheduled jobs: imports, exports, tenant jobs, webhook deliveries, the
 * roll-up) within 2x and 600 KB: nobody waits on their cold start, but it is billed.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { customResourceHandlers, stackTemplates } from '../infra/bundle-sizes';
import { promisify } from 'node:util';
import { authorizer, jobs, routeList, workers } from '../lib/routes';
import { bundle } from './support/bundling';

const run = promisify(execFile);
const OUT = join('bench', '.bundles');
/** Rounds of fresh imports: at least 15; 25 keep `npm run bench -- cold` at about 3 minutes on 2 cores. */
export const RUNS = 25;

/** The targets, as the printed table states them. */
export const TARGETS = {
  /** Cold load of the authorizer over the baseline's, the median of the per-round ratios. */
  authorizerRatio: 1.15,
  /** The same for every function. */
  functionRatio: 1.5,
  /** The median of all functions' ratios (the baseline excluded). */
  medianRatio: 1.3,
  /** No bundle larger (bytes). */
  maxBundleBytes: 400 * 1024,
  /** A worker's (queue consumer or scheduled job) cold load over the baseline's. */
  workerRatio: 2,
  /** No worker's bundle larger (bytes). */
  maxWorkerBundleBytes: 600 * 1024,
} as const;

export interface ColdStartFigure {
  name: string;
  bytes: number;
  /** Median import time of the bundle, ms (this machine; for reading, not for the targets). */
  medianMs: number;
  /** Median over the rounds of the import time less the baseline's of the same round, ms. */
  overBaselineMs: number;
  /** Median over the rounds of the import time over the baseline's of the same round. */
  ratio: number;
  /** The function's ratio target; null for the baseline. */
  targetRatio: number | null;
  /** Its bundle's size target (bytes). */
  maxBytes: number;
  /** A worker (a queue consumer or a scheduled job), held to the workers' targets. */
  worker: boolean;
  /** One of CDK's own custom-resource handlers from the last synthesis: measured, not ours to slim, held to no target. */
  cdk?: { runtime: string };
  /** Ratio and bundle size within their targets (the baseline: its size). */
  met: boolean;
}

export interface ColdStartResult {
  rounds: number;
  figures: ColdStartFigure[];
  /** Median of the functions' ratios, the baseline excluded. */
  medianRatio: number;
  /** The worst function by ratio. */
  worst: { name: string; ratio: number };
  largestBundle: { name: string; bytes: number };
  targets: typeof TARGETS;
  met: { authorizer: boolean; everyFunction: boolean; median: boolean; bundleSizes: boolean; workers: boolean };
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

export async function runColdStartBench(log: (line: string) => void): Promise<ColdStartResult> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const baselineEntry = join(OUT, 'baseline.ts');
  writeFileSync(
    baselineEntry,
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => ({ statusCode: 200, body: '' });\n",
    { flag: 'w' },
  );
  const person = { maxBytes: TARGETS.maxBundleBytes, worker: false };
  const worker = { target: TARGETS.workerRatio, maxBytes: TARGETS.maxWorkerBundleBytes, worker: true };
  const entries = [
    { name: BASELINE_NAME, entry: baselineEntry, target: null as number | null, ...person },
    { name: 'authorizer', entry: authorizer.handler, target: TARGETS.authorizerRatio as number, ...person },
    ...routeList().map((route) => ({ name: `${route.method} ${route.path}`, entry: route.handler, target: TARGETS.functionRatio, ...person })),
    ...Object.values(workers).map((consumer) => ({ name: `worker ${consumer.name}`, entry: consumer.handler, ...worker })),
    ...Object.values(jobs).map((job) => ({ name: `job ${job.name}`, entry: job.handler, ...worker })),
  ];

  const bundles: ((typeof entries)[number] & { file: string; bytes: number; cdk?: { runtime: string } })[] = [];
  for (const [index, entry] of entries.entries()) bundles.push({ ...entry, ...(await bundle(entry.entry, OUT, `f${index}`)) });
  const handlers = cdkHandlers();
  if (handlers.length === 0) log('cold start: no cdk.out with CDK handlers (npm run synth first to measure them too)');
  for (const [index, handler] of handlers.entries()) {
    if (!handler.file) continue;
    // Copied out of cdk.out, under a package.json of their own: CDK's handlers are CommonJS, and this repository's `"type": "module"` would make Node read them as ESM.
    const folder = join(OUT, `cdk-${index}`);
    cpSync(dirname(handler.file), folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{"type":"commonjs"}\n');
    const file = join(folder, basename(handler.file));
    bundles.push({
      name: handler.name,
      entry: file,
      file,
      bytes: handler.bytes,
      target: null,
      maxBytes: Infinity,
      worker: false,
      cdk: { runtime: handler.runtime },
    });
  }
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
    // Rounded before comparing, so that the table and the summary judge the same number.
    const ratio = Math.round(median(own.map((value, round) => value / (baseline[round] as number))) * 1000) / 1000;
    return {
      name: entry.name,
      bytes: entry.bytes,
      medianMs: Math.round(median(own) * 10) / 10,
      overBaselineMs: Math.round(median(own.map((value, round) => value - (baseline[round] as number))) * 10) / 10,
      ratio,
      targetRatio: entry.target,
      maxBytes: entry.maxBytes,
      worker: entry.worker,
      ...(entry.cdk ? { cdk: entry.cdk } : {}),
      met: entry.bytes <= entry.maxBytes && (entry.target === null || ratio <= entry.target),
    };
  });
  rmSync(OUT, { recursive: true, force: true });
  // CDK's handlers in other runtimes (Python) cannot be imported here: listed with their size.
  const unmeasured = handlers
    .filter((handler) => !handler.file)
    .map((handler): ColdStartFigure => ({
      name: handler.name,
      bytes: handler.bytes,
      medianMs: Number.NaN,
      overBaselineMs: Number.NaN,
      ratio: Number.NaN,
      targetRatio: null,
      maxBytes: Infinity,
      worker: false,
      cdk: { runtime: handler.runtime },
      met: true,
    }));
  return summarize([...figures, ...unmeasured]);
}

/** Every file under a directory. */
const filesUnder = (directory: string): string[] =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );

/**
 * CDK's own custom-resource handlers in the last synthesis (cdk.out): the console's
 * deployment, the bucket notifications, the buckets' auto-delete. A Node.js one is imported in
 * the same rounds as ours (its staged entry file); another runtime is listed by size only.
 */
export function cdkHandlers(outdir = 'cdk.out'): { name: string; runtime: string; bytes: number; file?: string }[] {
  if (!existsSync(join(outdir, 'manifest.json'))) return [];
  return stackTemplates(outdir).flatMap(({ stack, resources }) =>
    [...customResourceHandlers(resources)].flatMap((logicalId) => {
      const resource = resources[logicalId] as
        { Properties?: { Runtime?: string; Handler?: string; Code?: { ZipFile?: string } }; Metadata?: Record<string, unknown> } | undefined;
      const runtime = resource?.Properties?.Runtime ?? 'unknown';
      const asset = resource?.Metadata?.['aws:asset:path'];
      const name = `CDK ${stack.split('/').pop() ?? stack}/${logicalId} (${runtime})`;
      if (typeof asset !== 'string') return [{ name, runtime, bytes: Buffer.byteLength(resource?.Properties?.Code?.ZipFile ?? '') }];
      const directory = join(outdir, asset);
      const files = statSync(directory).isDirectory() ? filesUnder(directory) : [directory];
      const bytes = files.reduce((total, file) => total + readFileSync(file).length, 0);
      const module = (resource?.Properties?.Handler ?? 'index.handler').replace(/\.[^.]+$/, '');
      const entry = ['.js', '.mjs', '.cjs'].map((extension) => join(directory, `${module}${extension}`)).find((file) => existsSync(file));
      return [{ name, runtime, bytes, ...(runtime.startsWith('nodejs') && entry ? { file: entry } : {}) }];
    }),
  );
}

export const BASELINE_NAME = 'baseline (DynamoDB document client, bundled)';

/** The run's figures against the targets. */
export function summarize(figures: ColdStartFigure[], rounds = RUNS): ColdStartResult {
  // The functions a person waits on: the authorizer and the routes (the median is theirs).
  const functions = figures.filter((figure) => figure.targetRatio !== null && !figure.worker && !figure.cdk);
  const workerFigures = figures.filter((figure) => figure.worker);
  const worst = functions.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const largest = functions.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const medianRatio = Math.round(median(functions.map((figure) => figure.ratio)) * 1000) / 1000;
  const authorizerFigure = functions.find((figure) => figure.name === 'authorizer');
  return {
    rounds,
    figures,
    medianRatio,
    worst: { name: worst.name, ratio: worst.ratio },
    largestBundle: { name: largest.name, bytes: largest.bytes },
    targets: TARGETS,
    met: {
      authorizer: authorizerFigure !== undefined && authorizerFigure.ratio <= TARGETS.authorizerRatio,
      everyFunction: functions.every((figure) => figure.targetRatio === null || figure.ratio <= figure.targetRatio),
      median: medianRatio <= TARGETS.medianRatio,
      bundleSizes: figures.filter((figure) => !figure.cdk).every((figure) => figure.bytes <= figure.maxBytes),
      workers: workerFigures.every((figure) => figure.met),
    },
  };
}
