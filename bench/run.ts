/**
 * `npm run bench`: every benchmark figure, measured in one run, printed as tables and
 * written to bench/results/latest.json. A benchmark, never part of `npm test`.
 *
 *   npm run bench                 everything (about 8 minutes on 2 cores)
 *   npm run bench -- cold-start routes  only some parts: cold-start (or cold), routes, load, scale, bcrypt, burst, tracing
 *                                 (tracing is not in the default run: Powertools Tracer, which we decided against,
 *                                 and Powertools Metrics, each against the same function)
 *   npm run bench -- console      the console's budgets: first-page JavaScript and Lighthouse, against npm start
 *                                 (not in the default run: it needs Chromium)
 *   npm run bench -- burst        GET /auth/me while 200 sign-ins, then 200 registrations, come from one address,
 *                                 bcrypt on the event loop and in the local worker pool (docs/performance.md)
 *   npm run bench -- imports      a CSV import of 20,000 products: the dry run, the real run against creating them
 *                                 one by one, the same file again (not in the default run: about 10 minutes)
 *   npm run bench -- counts       the close of a stock count of 5,000 lines against adjustments one by one
 *                                 (not in the default run: about 3 minutes)
 *   npm run bench -- exports      CSV exports of 100,000 suppliers and 20,000 products against reading them page
 *                                 after page (not in the default run: about 6 minutes)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { runBurstBench } from './burst';
import { printExportFigures, runExportBench } from './exports';
import { runImportBench } from './imports';
import { runCountCloseBench } from './counts';
import { runColdStartBench, TARGETS } from './cold-start';
import { CONSOLE_BUDGETS, runConsoleBench } from './console';
import { runBcryptBench, runLoadBench } from './load';
import { runRouteBench } from './routes';
import { runScaleBench } from './scale';
import { runTracingBench } from './tracing';
import { benchStore } from './support/store';

const PARTS = ['cold', 'cold-start', 'routes', 'load', 'scale', 'bcrypt', 'burst', 'tracing', 'console', 'imports', 'exports', 'counts'] as const;
const DEFAULT_PARTS: readonly Part[] = ['cold', 'routes', 'load', 'scale', 'bcrypt', 'burst'];
type Part = (typeof PARTS)[number];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const yes = (met: boolean | null) => (met === null ? '' : met ? 'yes' : 'NO');

async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((part) => !PARTS.includes(part as Part));
  if (unknown.length) throw new Error(`unknown part(s) ${unknown.join(', ')}; parts: ${PARTS.join(', ')}`);
  const parts = new Set<Part>(asked.length ? (asked as Part[]) : DEFAULT_PARTS);
  const started = Date.now();
  const results: Record<string, unknown> = { measuredAt: new Date().toISOString(), node: process.version };
  const log = (line: string) => console.log(line);

  // `cold-start` is the part's full name; `cold` stays for the commands already written down.
  if (parts.has('cold') || parts.has('cold-start')) {
    const cold = await runColdStartBench(log);
    results.coldStart = cold.figures;
    results.coldStartSummary = {
      rounds: cold.rounds,
      medianRatio: cold.medianRatio,
      worst: cold.worst,
      largestBundle: cold.largestBundle,
      targets: cold.targets,
      met: cold.met,
    };
    console.log(
      `\nBundles and cold load: import time over the baseline's, the median of ${cold.rounds} rounds of fresh processes (targets: authorizer <= ${TARGETS.authorizerRatio}x, every route function <= ${TARGETS.functionRatio}x, their median <= ${TARGETS.medianRatio}x, bundles <= ${kb(TARGETS.maxBundleBytes)}; workers and jobs <= ${TARGETS.workerRatio}x and ${kb(TARGETS.maxWorkerBundleBytes)})`,
    );
    console.table(
      cold.figures
        .filter((entry) => !entry.cdk)
        .map((entry) => ({
          function: entry.name,
          bundle: kb(entry.bytes),
          'import ms': entry.medianMs,
          ratio: entry.ratio.toFixed(2),
          target: entry.targetRatio === null ? '' : `<= ${entry.targetRatio}x, ${kb(entry.maxBytes)}`,
          met: entry.targetRatio === null ? '' : yes(entry.met),
        })),
    );
    const cdkHandlerFigures = cold.figures.filter((entry) => entry.cdk);
    if (cdkHandlerFigures.length > 0) {
      console.log("CDK's own custom-resource handlers (cdk.out, from the last `npm run synth`): measured the same way, not ours to slim, held to no target");
      console.table(
        cdkHandlerFigures.map((entry) => ({
          function: entry.name,
          bundle: kb(entry.bytes),
          'import ms': Number.isNaN(entry.medianMs) ? 'not Node.js' : entry.medianMs,
          ratio: Number.isNaN(entry.ratio) ? '' : entry.ratio.toFixed(2),
        })),
      );
    }
    console.log(
      `median ratio ${cold.medianRatio.toFixed(2)}x (target <= ${TARGETS.medianRatio}x: ${yes(cold.met.median)}); worst ${cold.worst.name} ${cold.worst.ratio.toFixed(2)}x (every function <= ${TARGETS.functionRatio}x: ${yes(cold.met.everyFunction)}); authorizer <= ${TARGETS.authorizerRatio}x: ${yes(cold.met.authorizer)}; largest route bundle ${cold.largestBundle.name} ${kb(cold.largestBundle.bytes)} (every bundle within its size: ${yes(cold.met.bundleSizes)}); workers and jobs within theirs: ${yes(cold.met.workers)}`,
    );
  }

  if (parts.has('tracing')) {
    const tracing = await runTracingBench(log);
    results.tracing = tracing;
    console.log('\nPowertools Tracer and Metrics: cold load with and without each (median of 15 fresh processes, over the same baseline)');
    console.table(
      tracing.map((entry) => ({ function: entry.function, variant: entry.variant, bundle: kb(entry.bytes), 'over baseline ms': entry.overBaselineMs })),
    );
  }

  if (parts.has('routes') || parts.has('scale') || parts.has('bcrypt') || parts.has('imports') || parts.has('exports') || parts.has('counts')) {
    const store = await benchStore();
    try {
      if (parts.has('counts')) {
        const counts = await runCountCloseBench(log);
        results.counts = counts;
        console.log(`\nStock counts: the close of ${counts.lines} lines (DynamoDB Local, in process as the close route and the worker run it)`);
        console.table([
          { figure: 'counting (PUT of each line, 4 at once)', lines: counts.lines, seconds: counts.countingSeconds, target: '', met: '' },
          {
            figure: 'close',
            lines: counts.lines,
            seconds: counts.closeSeconds,
            'lines/s': counts.closeLinesPerSecond,
            target: counts.target,
            met: yes(counts.met),
          },
          { figure: 'baseline: ADJUSTMENT one by one', lines: counts.baselineLines, 'lines/s': counts.baselineLinesPerSecond, target: '', met: '' },
        ]);
        console.log(`pace over the baseline ${counts.paceRatio}x`);
      }
      if (parts.has('imports')) {
        const imports = await runImportBench(log);
        results.imports = imports;
        console.log(`\nImports: ${imports.figures[1]?.rows ?? 0} products from one CSV file (DynamoDB Local, the engine in process as npm start runs it)`);
        console.table(
          imports.figures.map((entry) => ({
            figure: entry.name,
            rows: entry.rows,
            seconds: entry.seconds,
            'rows/s': entry.rowsPerSecond,
            target: entry.target,
            met: yes(entry.met),
          })),
        );
        console.log(
          `pace over the baseline ${imports.paceRatio}x; products after both runs ${imports.productsAfter}; the second run created ${imports.secondRun.created} and found ${imports.secondRun.existing}`,
        );
        const { idle, duringImport, p95Ratio } = imports.reads;
        console.log(
          `a page of 100 products: idle p50 ${idle.p50} ms, p95 ${idle.p95} ms (${idle.reads} reads); during the import p50 ${duringImport.p50} ms, p95 ${duringImport.p95} ms (${duringImport.reads} reads); p95 ratio ${p95Ratio}x`,
        );
      }
      if (parts.has('exports')) {
        const exports = await runExportBench(log, { suppliers: 100_000, products: 20_000 });
        results.exports = exports;
        printExportFigures(exports);
      }
      if (parts.has('bcrypt')) {
        results.bcrypt = await runBcryptBench();
        console.log(
          `\nbcrypt: cost ${(results.bcrypt as { cost: number }).cost}, one hash ${(results.bcrypt as { medianMs: number }).medianMs} ms (median of 10, this machine)`,
        );
      }
      if (parts.has('routes')) {
        const routes = await runRouteBench(store.dataDir, log);
        results.routes = routes;
        console.log('\nPer route: DynamoDB requests and capacity of one typical call; warm handler CPU time per invocation');
        console.table(
          routes.map((entry) => ({
            route: entry.name,
            status: entry.status,
            requests: entry.requests,
            commands: entry.commands.map((name) => name.replace(/Command$/, '')).join(' + '),
            CU: entry.capacityUnits,
            invocations: entry.invocations,
            'cpu p50 ms': entry.cpuMedianMs,
            'cpu p99 ms': entry.cpuP99Ms,
            target: entry.target,
            met: yes(entry.met),
          })),
        );
      }
      if (parts.has('scale')) {
        const { figures: scale, search } = await runScaleBench(log);
        results.scale = scale;
        results.search = search;
        console.log('\nScale (DynamoDB capacity units per read)');
        console.table(
          scale.map((entry) => ({
            figure: entry.name,
            small: `${entry.small.label}: ${entry.small.capacityUnits} CU / ${entry.small.requests} req`,
            large: `${entry.large.label}: ${entry.large.capacityUnits} CU / ${entry.large.requests} req`,
            ratio: entry.ratio,
            target: `${entry.targetOf === 'ratio' ? 'ratio' : 'CU'} <= ${entry.target}`,
            met: yes(entry.met),
          })),
        );
        console.log('\nSearch (the in-memory engine against the full scan it replaced, same run; RCU/WCU as DynamoDB bills them)');
        console.table(
          search.map((entry) => ({
            figure: entry.name,
            measured: entry.measured,
            baseline: entry.baseline,
            ratio: entry.ratio ?? '',
            target: entry.target,
            met: yes(entry.met),
          })),
        );
      }
    } finally {
      await store.stop();
    }
  }

  if (parts.has('load')) {
    const load = await runLoadBench(log);
    results.load = load;
    console.log('\nEnd to end through the local emulator (autocannon; target: 0 non-2xx)');
    console.table(
      load.map((entry) => ({
        scenario: entry.scenario,
        connections: entry.connections,
        seconds: entry.seconds,
        'req/s': entry.requestsPerSecond,
        'p50 ms': entry.p50Ms,
        'p99 ms': entry.p99Ms,
        non2xx: entry.non2xx,
        errors: entry.errors,
        met: yes(entry.met),
      })),
    );
    for (const entry of load)
      if (entry.firstFailure) console.log(`${entry.scenario}: status codes ${JSON.stringify(entry.statusCodes)}; first failure: ${entry.firstFailure}`);
  }

  if (parts.has('burst')) {
    const burst = await runBurstBench(log);
    results.burst = burst;
    console.log(
      `\nSign-in and registration floods: GET /auth/me from ${burst.clients} clients, idle and while ${burst.burstSize} requests come from one address (per-IP ceiling ${burst.perIpLimit}); target: median <= ${burst.targetRatio}x the idle median of the same API, the lower of before and after; load: the 1-minute load average as the phase began`,
    );
    console.table(
      burst.figures.map((entry) => ({
        hasher: entry.poolSize ? `pool of ${entry.poolSize}` : entry.hasher,
        phase: entry.phase,
        'burst ms': entry.burstMs ?? '',
        'me req': entry.meRequests,
        'p50 ms': entry.meMedianMs,
        'p50 x idle': entry.ratio,
        'p90 ms': entry.meP90Ms,
        'p90 x idle': entry.p90Ratio,
        'max ms': entry.meMaxMs,
        'refused 401/403': entry.refused ?? '',
        'throttled 429': entry.throttled ?? '',
        'counts ok': entry.countsAsExpected === null ? '' : yes(entry.countsAsExpected),
        met: yes(entry.met),
        load: entry.loadAverage,
      })),
    );
    for (const entry of burst.figures)
      if (entry.meFailures) console.log(`${entry.hasher} ${entry.phase}: ${entry.meFailures} GET /auth/me answered other than 200`);
    for (const entry of burst.figures)
      if (entry.countsAsExpected === false) console.log(`${entry.hasher} ${entry.phase}: answers ${JSON.stringify(entry.statuses)}`);
  }

  if (parts.has('console')) {
    const figures = await runConsoleBench(log);
    results.console = figures;
    console.log(`\nThe console's first page: JavaScript downloaded, gzipped as served (budget <= ${kb(CONSOLE_BUDGETS.firstPageJsGzipBytes)})`);
    console.table(figures.firstPageJs.map((entry) => ({ page: entry.page, scripts: entry.files, 'JS gzip': kb(entry.bytes), met: yes(entry.met) })));
    console.log(
      `\nLighthouse 12.2.3 on Chromium, signed in (budget: performance and accessibility >= ${CONSOLE_BUDGETS.lighthouse}, with its desktop and its mobile settings)`,
    );
    console.table(
      figures.lighthouse.map((entry) => ({
        page: entry.page,
        settings: entry.formFactor,
        performance: entry.performance,
        accessibility: entry.accessibility,
        'LCP ms': entry.lcpMs,
        'TBT ms': entry.tbtMs,
        CLS: entry.cls,
        met: yes(entry.met),
      })),
    );
  }

  results.durationMs = Date.now() - started;
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to bench/results/latest.json in ${Math.round((Date.now() - started) / 1000)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
