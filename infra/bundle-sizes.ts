/**
 * `tsx infra/bundle-sizes.ts [cdk.out]`: after `cdk synth`, one line per Lambda function of
 * every synthesized stack with the size of its bundle (the asset directory CDK staged for
 * it, as deployed) and of that bundle gzipped (about the size of the uploaded zip).
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
function customResourceHandlers(resources: Record<string, TemplateResource>): Set<string> {
  const handlers = new Set<string>();
  for (const resource of Object.values(resources)) {
    const token = resource.Type.startsWith('Custom::') ? (resource.Properties as { ServiceToken?: { 'Fn::GetAtt'?: [string, string] } } | undefined)?.ServiceToken : undefined;
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

/** The bundle size of every function in the cloud assembly at `outdir`, largest first. */
export function bundleSizes(outdir: string): BundleSize[] {
  const sizes: BundleSize[] = [];
  const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack');
  for (const [stack, artifact] of stacks) {
    const file = artifact.properties?.templateFile;
    if (!file) continue;
    const template = JSON.parse(readFileSync(path.join(outdir, file), 'utf8')) as { Resources?: Record<string, TemplateResource> };
    const handlers = customResourceHandlers(template.Resources ?? {});
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
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
    ...sizes.map((size) => [size.stack, size.logicalId, size.memoryMb ? `${size.memoryMb} MB` : '', kib(size.bytes), kib(size.gzipBytes), size.description.split(':')[0] ?? '']),
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

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const outdir = path.resolve(process.argv[2] ?? 'cdk.out');
  const sizes = bundleSizes(outdir);
  if (sizes.length === 0) {
    process.stderr.write(`No bundled function found in ${outdir}; run \`npx cdk synth\` first.\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`Bundle sizes (${outdir})\n\n${formatBundleSizes(sizes)}\n`);
  }
}
