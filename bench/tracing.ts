/**
 * What the observability libraries cost at cold start: Powertools Tracer's
 * in-process instrumentation, measured before adopting it (it was not), and Powertools
 * Metrics, which every route function holds (lib/metrics.ts), against the same function
 * with the metrics module swapped for a stub that records nothing. Active tracing itself (the Lambda service's segment, the
 * API stage's) costs the function nothing at import; the Tracer adds the X-Ray SDK and
 * patches the DynamoDB client, so every DynamoDB call becomes a subsegment.
 *
 * Same method as bench/cold-start.ts (fresh Node processes, interleaved rounds, medians of
 * the per-round difference): each function is bundled twice, as deployed and with a
 * Tracer that captures a DynamoDB client (the patch itself is cheap; what costs is loading
 * the SDK), and both are compared with the same baseline bundle in the same rounds.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { authorizer, routeList } from '../lib/routes';
import { importTime, median } from './cold-start';
import { bundle } from './support/bundling';

const OUT = join('bench', '.bundles-tracing');
const RUNS = 15;

export interface TracingFigure {
  function: string;
  variant: 'as deployed' | 'with Tracer' | 'without Metrics';
  bytes: number;
  overBaselineMs: number;
}

/** Powertools Metrics' API, doing nothing: the function without the library. */
const METRICS_STUB =
  "export const MetricUnit = { Count: 'Count' };\nexport class Metrics { singleMetric() { return this; } addDimension() { return this; } addMetric() { return this; } }\n";

const BASELINE =
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => ({ statusCode: 200, body: '' });\n";

/** The function's own module, plus a Tracer capturing a DynamoDB client. */
const withTracer = (handlerFile: string) =>
  [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "import { Tracer } from '@aws-lambda-powertools/tracer';",
    `import { handler as inner } from ${JSON.stringify(relative(OUT, handlerFile).replace(/\.ts$/, ''))};`,
    "const tracer = new Tracer({ serviceName: 'backoffice-api' });",
    'export const client = tracer.captureAWSv3Client(new DynamoDBClient({}));',
    'export const handler = inner;',
    '',
  ].join('\n');

export async function runTracingBench(log: (line: string) => void): Promise<TracingFigure[]> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const list = routeList();
  const sample = [
    { name: 'authorizer', file: authorizer.handler },
    { name: 'GET /suppliers', file: list.find((route) => route.method === 'GET' && route.path === '/suppliers')?.handler },
    { name: 'POST /inventory/movements', file: list.find((route) => route.method === 'POST' && route.path === '/inventory/movements')?.handler },
  ];
  writeFileSync(join(OUT, 'baseline.ts'), BASELINE);
  writeFileSync(join(OUT, 'metrics-stub.ts'), METRICS_STUB);
  const withoutMetrics = { '@aws-lambda-powertools/metrics': `./${join(OUT, 'metrics-stub.ts')}` };
  const entries: { name: string; variant: TracingFigure['variant'] | 'baseline'; entry: string; alias?: Record<string, string> }[] = [
    { name: 'baseline', variant: 'baseline', entry: join(OUT, 'baseline.ts') },
  ];
  for (const [index, { name, file }] of sample.entries()) {
    if (!file) throw new Error(`${name} is not in the route manifest`);
    const traced = join(OUT, `traced${index}.ts`);
    writeFileSync(traced, withTracer(file));
    entries.push(
      { name, variant: 'as deployed', entry: file },
      { name, variant: 'with Tracer', entry: traced },
      { name, variant: 'without Metrics', entry: file, alias: withoutMetrics },
    );
  }
  const bundles = [];
  for (const [index, entry] of entries.entries()) bundles.push({ ...entry, ...(await bundle(entry.entry, OUT, `b${index}`, entry.alias)) });
  log(`tracing: ${bundles.length} bundles built; ${RUNS} rounds of fresh imports ...`);
  const times = bundles.map(() => [] as number[]);
  for (let round = 0; round < RUNS; round += 1) {
    for (const [index, entry] of bundles.entries()) (times[index] as number[]).push(await importTime(entry.file));
  }
  const baseline = times[0] as number[];
  const figures = bundles.slice(1).map((entry, index): TracingFigure => ({
    function: entry.name,
    variant: entry.variant as TracingFigure['variant'],
    bytes: entry.bytes,
    overBaselineMs: Math.round(median((times[index + 1] as number[]).map((value, round) => value - (baseline[round] as number))) * 10) / 10,
  }));
  rmSync(OUT, { recursive: true, force: true });
  return figures;
}
