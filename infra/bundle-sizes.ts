/**
 * `tsx infra/bundle-sizes.ts [cdk.out]`: after `cdk synth`, one line per Lambda function of
 * every synthesized stack with the size of its bundle (the asset directory CDK staged for
 * it, as deployed) and of that bundle gzipped (about the size of the uploaded zip), then one
 * line per template (nested stacks included): its resources, its functions, its largest
 * bundle and how many resources it may still add before CloudFormation's limit.
 *
 * Functions are found in the templates of the last synthesis (manifest.json; cdk.out may
 * still hold templates of other stages): each AWS::Lambda::Function names its staged asset
 * in its `aws:asset:path` metadata. CDK's own custom-resource handlers (the console's
 * BucketDeployment) are left out: not the service's bundles.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface TemplateResource {
  Type: string;
  Properties?: { Description?: string; MemorySize?: number };
  Metadata?: Record<string, unknown>;
}

export interface BundleSize {
  stack: string;
  logicalId: string;
  description: string;
  memoryMb: number | undefined;
  bytes: number;
  gzipBytes: number;
}

/** Functions some custom resource names as its ServiceToken (`Fn::GetAtt: [id, 'Arn']`): CDK's handlers. */
export function customResourceHandlers(resources: Record<string, TemplateResource>): Set<string> {
  const handlers = new Set<string>();
  for (const resource of Object.values(resources)) {
    const token = resource.Type.startsWith('Custom::')
      ? (resource.Properties as { ServiceToken?: { 'Fn::GetAtt'?: [string, string] } } | undefined)?.ServiceToken
      : undefined;
    const id = token?.['Fn::GetAtt']?.[0];
    if (id) handlers.add(id);
  }
  return handlers;
}

/** Every file under a directory (an asset is a directory with index.mjs, sometimes more). */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

export interface StackTemplate {
  /** The stack's artifact id, or `<parent>/<logical id>` for a nested stack. */
  stack: string;
  resources: Record<string, TemplateResource>;
}

/** CloudFormation refuses a template with more resources than this, nested or not. */
export const CLOUDFORMATION_RESOURCE_LIMIT = 500;

/**
 * Every template of the last synthesis: each stack's, then each nested stack's, which CDK
 * writes as its own file (`*.nested.template.json`) named by the `aws:asset:path` of the
 * AWS::CloudFormation::Stack resource in its parent. Each counts on its own against the limit.
 */
export function stackTemplates(outdir: string): StackTemplate[] {
  const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const templates: StackTemplate[] = [];
  const read = (stack: string, file: string): void => {
    const template = JSON.parse(readFileSync(path.join(outdir, file), 'utf8')) as { Resources?: Record<string, TemplateResource> };
    const resources = template.Resources ?? {};
    templates.push({ stack, resources });
    for (const [logicalId, resource] of Object.entries(resources)) {
      const nested = resource.Metadata?.['aws:asset:path'];
      if (resource.Type === 'AWS::CloudFormation::Stack' && typeof nested === 'string') read(`${stack}/${logicalId}`, nested);
    }
  };
  for (const [stack, artifact] of Object.entries(manifest.artifacts ?? {})) {
    const file = artifact.properties?.templateFile;
    if (artifact.type === 'aws:cloudformation:stack' && file) read(stack, file);
  }
  return templates;
}

/** The bundle size of every function in the cloud assembly at `outdir` (nested stacks included), largest first. */
export function bundleSizes(outdir: string): BundleSize[] {
  const sizes: BundleSize[] = [];
  for (const { stack, resources } of stackTemplates(outdir)) {
    const handlers = customResourceHandlers(resources);
    for (const [logicalId, resource] of Object.entries(resources)) {
      const assetPath = resource.Metadata?.['aws:asset:path'];
      if (resource.Type !== 'AWS::Lambda::Function' || typeof assetPath !== 'string') continue;
      if (handlers.has(logicalId)) continue;
      const directory = path.join(outdir, assetPath);
      const files = statSync(directory).isDirectory() ? filesUnder(directory) : [directory];
      const contents = files.map((name) => readFileSync(name));
      sizes.push({
        stack,
        logicalId,
        description: resource.Properties?.Description ?? '',
        memoryMb: resource.Properties?.MemorySize,
        bytes: contents.reduce((total, content) => total + content.length, 0),
        gzipBytes: contents.reduce((total, content) => total + gzipSync(content, { level: 9 }).length, 0),
      });
    }
  }
  return sizes.sort((a, b) => b.bytes - a.bytes || a.logicalId.localeCompare(b.logicalId));
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** A plain-text table for the console. */
export function formatBundleSizes(sizes: BundleSize[]): string {
  const rows = [
    ['Stack', 'Function (logical id)', 'Memory', 'Bundle', 'Gzipped', 'Route / job'],
    ...sizes.map((size) => [
      size.stack,
      size.logicalId,
      size.memoryMb ? `${size.memoryMb} MB` : '',
      kib(size.bytes),
      kib(size.gzipBytes),
      size.description.split(':')[0] ?? '',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 3 || column === 4 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  return [line(rows[0]!), ...rows.slice(1).map(line), '', `${sizes.length} functions, ${kib(total)} in all, largest ${kib(sizes[0]?.bytes ?? 0)}`].join('\n');
}

export interface StackSummary {
  stack: string;
  resources: number;
  functions: number;
  largest: BundleSize | undefined;
  /** Resources this template may still add before CloudFormation refuses it. */
  headroom: number;
}

/** Per template: its resources, its bundled functions, the largest of their bundles, and the headroom to the limit. */
export function stackSummaries(outdir: string, sizes: BundleSize[] = bundleSizes(outdir)): StackSummary[] {
  return stackTemplates(outdir).map(({ stack, resources }) => {
    const own = sizes.filter((size) => size.stack === stack);
    const count = Object.keys(resources).length;
    return { stack, resources: count, functions: own.length, largest: own[0], headroom: CLOUDFORMATION_RESOURCE_LIMIT - count };
  });
}

/** A plain-text table of the per-stack summary. */
export function formatStackSummaries(summaries: StackSummary[]): string {
  const rows = [
    ['Stack', 'Resources', 'Functions', 'Largest bundle', `Headroom to ${CLOUDFORMATION_RESOURCE_LIMIT}`],
    ...summaries.map((summary) => [
      summary.stack,
      String(summary.resources),
      String(summary.functions),
      summary.largest ? `${kib(summary.largest.bytes)} (${summary.largest.logicalId})` : '',
      String(summary.headroom),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const numeric = new Set([1, 2, 4]);
  return rows
    .map((row) =>
      row
        .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const outdir = path.resolve(process.argv[2] ?? 'cdk.out');
  const sizes = bundleSizes(outdir);
  if (sizes.length === 0) {
    process.stderr.write(`No bundled function found in ${outdir}; run \`npx cdk synth\` first.\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`Bundle sizes (${outdir})\n\n${formatBundleSizes(sizes)}\n\nStacks\n\n${formatStackSummaries(stackSummaries(outdir, sizes))}\n`);
  }
}
