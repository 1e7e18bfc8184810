/**
 * `npm run bench -- imports`: a CSV import of 20,000 products, on DynamoDB Local, with the
 * engine the worker and npm start run (lib/imports/engine), step after step as the queue would
 * run them:
 * - the dry run of the file (target: under 30 s);
 * - the real run (target: under 10 minutes), and its pace against the strongest baseline, in the
 *   same run: the same products created one by one through the same service at the same width,
 *   without the file (what a client POSTing them as fast as it may would get), as a ratio;
 * - the same file again: nothing created, every row found;
 * - then the tenant holds exactly 20,000 products;
 * - whether the API stays usable meanwhile: a person reading a product list (the baseline
 *   tenant's 2,000), a page every quarter of a second, while the real run goes, against the same reads with nothing running, in the
 *   same run (median and 95th percentile, as a ratio). Both share one process, as under
 *   npm start; deployed, the worker is a function of its own and only the table is shared.
 */
import type { Principal } from '../lib/auth/principal';
import { benchTenant } from './support/principal';
import { findImportJob } from '../lib/imports/repository';
import { queryAll } from '../lib/db/query';
import { keys } from '../lib/db/keys';
import { mapConcurrently } from '../lib/domain/concurrency';
import { runImport } from '../lib/imports/engine';
import type { ImportJob } from '../lib/imports/model';
import { createImportJob } from '../lib/imports/service';
import { createProduct, listProducts } from '../lib/inventory/service';

export interface ImportFigure {
  name: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  target: string;
  met: boolean | null;
}

export interface ImportBench {
  figures: ImportFigure[];
  /** The import's rows per second over the baseline's: 1 is the service's own pace. */
  paceRatio: number;
  productsAfter: number;
  secondRun: { created: number; existing: number };
  /** A page of 100 products read back to back, with nothing running and during the real run (ms). */
  reads: { idle: ReadLatency; duringImport: ReadLatency; p95Ratio: number };
}

export interface ReadLatency {
  reads: number;
  p50: number;
  p95: number;
}

/** The width the engine creates products at (lib/imports/engine), given to the baseline too. */
const WIDTH = 16;
/** Rows of the baseline: enough for a steady pace, a tenth of the file. */
const BASELINE_ROWS = 2_000;

/** Reads of the idle baseline (back to back: nothing else runs). */
const IDLE_READS = 200;

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

function latency(samples: number[]): ReadLatency {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { reads: sorted.length, p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)) };
}

/** One page of the tenant's products, as GET /inventory/products?limit=100 reads it; its time in ms. */
async function timedRead(reader: Principal): Promise<number> {
  const started = performance.now();
  await listProducts(reader, { limit: 100 }, Date.now(), undefined);
  return performance.now() - started;
}

/** How often the person meanwhile reads a page: a brisk person paging through, not a load test. */
const READ_EVERY_MS = 250;

/** A page read every READ_EVERY_MS until `done` settles: a person browsing the list meanwhile. */
async function readWhile(reader: Principal, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const samples: number[] = [];
  while (!finished) {
    const took = await timedRead(reader);
    samples.push(took);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, READ_EVERY_MS - took)));
  }
  return samples;
}

const sku = (index: number) => `SKU-${String(index).padStart(6, '0')}`;

/** The file: a header as Bling writes it, and `rows` products, UTF-8 with a BOM, `;` and CRLF. */
function productFile(rows: number): Uint8Array {
  const lines = ['Código;Descrição;Unidade;Preço'];
  for (let index = 0; index < rows; index += 1) lines.push(`${sku(index)};Produto de teste ${index};UN;"${(index % 900) + 1},90"`);
  return new TextEncoder().encode(`\uFEFF${lines.join('\r\n')}\r\n`);
}

async function timedImport(admin: Principal, file: Uint8Array, dryRun: boolean): Promise<{ job: ImportJob; seconds: number }> {
  const job = await createImportJob(admin, { kind: 'products', dryRun, fileName: 'produtos.csv', size: file.byteLength }, Date.now());
  const started = performance.now();
  await runImport(job, { now: Date.now, files: { read: () => Promise.resolve(file) } });
  const seconds = (performance.now() - started) / 1000;
  const done = await findImportJob(job.tenantId, job.id);
  if (!done || done.status !== 'succeeded') throw new Error(`the import ${job.id} ended ${done?.status ?? 'missing'}: ${done?.failure ?? ''}`);
  return { job: done, seconds };
}

const figure = (name: string, rows: number, seconds: number, target: string, met: boolean | null): ImportFigure => ({
  name,
  rows,
  seconds: Math.round(seconds * 10) / 10,
  rowsPerSecond: Math.round(rows / seconds),
  target,
  met,
});

export async function runImportBench(log: (line: string) => void, rows = 20_000): Promise<ImportBench> {
  const admin = await benchTenant('imports');
  const file = productFile(rows);
  log(`imports: a file of ${rows} products, ${(file.byteLength / 1024).toFixed(0)} KB`);

  const dry = await timedImport(admin, file, true);
  log(`imports: dry run ${dry.seconds.toFixed(1)} s (${dry.job.created} would be created)`);

  // The baseline: the same service, the same width, in a tenant of its own, without a file.
  const baselineTenant = await benchTenant('imports-baseline');
  const baselineStarted = performance.now();
  await mapConcurrently(
    Array.from({ length: BASELINE_ROWS }, (_, index) => index),
    WIDTH,
    (index) => createProduct(baselineTenant, { sku: sku(index), name: `Produto de teste ${index}` }, Date.now()),
  );
  const baselineSeconds = (performance.now() - baselineStarted) / 1000;
  log(`imports: baseline ${BASELINE_ROWS} products one by one in ${baselineSeconds.toFixed(1)} s`);

  // The reads' baseline: the same tenant's list with nothing running (its products from the
  // baseline tenant's size: the importing tenant has none yet, so the baseline tenant is read).
  const idle: number[] = [];
  for (let index = 0; index < IDLE_READS; index += 1) idle.push(await timedRead(baselineTenant));
  const realRun = timedImport(admin, file, false);
  const during = await readWhile(baselineTenant, realRun);
  const real = await realRun;
  log(`imports: real run ${real.seconds.toFixed(1)} s (${real.job.created} created), ${during.length} list reads meanwhile`);
  const again = await timedImport(admin, file, false);
  log(`imports: the same file again ${again.seconds.toFixed(1)} s (${again.job.created} created, ${again.job.existing} already there)`);

  const { pk, skPrefix } = keys.productSkusOfTenant(admin.tenantId);
  const productsAfter = (await queryAll(pk, { skPrefix })).length;
  // Each run took the path its figure names: the dry run and the real run meant every row, the
  // same file again found every product by key and created none.
  if (dry.job.created !== rows) throw new Error(`imports: the dry run would create ${dry.job.created} of ${rows}`);
  if (real.job.created !== rows || productsAfter !== rows)
    throw new Error(`imports: the real run created ${real.job.created} of ${rows}; the tenant has ${productsAfter} products`);
  if (again.job.created !== 0 || again.job.existing !== rows)
    throw new Error(`imports: the same file again created ${again.job.created} and found ${again.job.existing} of ${rows}`);

  const baseline = figure('baseline: createProduct one by one, same width', BASELINE_ROWS, baselineSeconds, '', null);
  const imported = figure('import (real run)', rows, real.seconds, '< 600 s', real.seconds < 600);
  return {
    figures: [
      figure('dry run', rows, dry.seconds, '< 30 s', dry.seconds < 30),
      imported,
      figure('the same file again', rows, again.seconds, '', null),
      baseline,
    ],
    paceRatio: Math.round((imported.rowsPerSecond / baseline.rowsPerSecond) * 100) / 100,
    productsAfter,
    secondRun: { created: again.job.created, existing: again.job.existing },
    reads: { idle: latency(idle), duringImport: latency(during), p95Ratio: Math.round((latency(during).p95 / latency(idle).p95) * 100) / 100 },
  };
}
