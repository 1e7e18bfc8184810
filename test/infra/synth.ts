import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { CONTROL_TOWER_RULE_FOLDERS, CONTROL_TOWER_RULES_DIR, createBackofficeApp } from '../../infra/backoffice-app';
import { fromRoot, repoRoot } from '../../infra/paths';
import type { BackofficeStack } from '../../infra/stack';
import type { ManifestRoute } from '../../infra/constructs/route-area';
import { flattenedTemplate } from '../../local/bundles/assembly';
import { inject } from 'vitest';

/** Helpers shared by the infra tests: the app as `cdk synth` builds it, and its validation report. */

/**
 * The context the CLI gives the app: the feature flags of cdk.json, and asset metadata on
 * (`aws:asset:path` on each function, which sam local invoke and infra/bundle-sizes.ts read).
 */
export function cdkJsonContext(): Record<string, unknown> {
  const { context } = JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return { ...context, 'aws:cdk:enable-asset-metadata': true };
}

/** The part of CDK's validation-report.json the tests read. */
export interface ValidationReport {
  pluginReports: {
    pluginName: string;
    conclusion: string;
    violations: { ruleName: string; severity: string; description: string; violatingConstructs: { constructPath: string }[] }[];
  }[];
}

/** `RULE (severity) at path` for every violation of the plugins whose name starts with `plugin`. */
export function violationsOf(report: ValidationReport, plugin: string): string[] {
  return report.pluginReports
    .filter((pluginReport) => pluginReport.pluginName.startsWith(plugin))
    .flatMap((pluginReport) =>
      pluginReport.violations.flatMap((violation) =>
        violation.violatingConstructs.map((construct) => `${violation.ruleName} (${violation.severity}) at ${construct.constructPath}`),
      ),
    );
}

/**
 * Synthesizes a variant of the app without bundling the functions (the assets are left
 * empty, which is all a template property or a cdk-nag rule needs): a second of work
 * instead of fifteen. Returns the template, the report, and the error synth threw, if any.
 */
export function synthWithoutBundling(
  context: Record<string, unknown>,
  extend?: (stack: BackofficeStack) => void,
  options: { routes?: readonly ManifestRoute[]; keep?: (outdir: string) => void } = {},
): { template?: Template; report: ValidationReport; error?: Error } {
  const outdir = mkdtempSync(path.join(tmpdir(), 'backoffice-variant-'));
  const { app, stack } = createBackofficeApp(
    { outdir, context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context } },
    options.routes ? { routes: options.routes } : {},
  );
  extend?.(stack);
  let template: Template | undefined;
  let error: Error | undefined;
  try {
    app.synth();
    template = Template.fromJSON(flattenedTemplate(outdir, `${stack.stackName}.template.json`));
  } catch (caught) {
    error = caught as Error;
  }
  const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  options.keep?.(outdir);
  rmSync(outdir, { recursive: true, force: true });
  return { report, ...(template ? { template } : {}), ...(error ? { error } : {}) };
}

/**
 * The resource types a guard rule file evaluates: those it selects with
 * `Resources.*[ Type == %NAME ]`, where `let NAME = "AWS::..."` (the types it only mentions, to
 * follow a reference to another resource, are not evaluated by it).
 */
function evaluatedTypes(rule: string): string[] {
  const constants = new Map([...rule.matchAll(/^let (\w+) = "(AWS::[\w:]+)"/gm)].map((match) => [match[1] as string, match[2] as string]));
  return [...rule.matchAll(/Resources\.\*\[\s*Type == %(\w+)\s*\]/g)].flatMap((match) => constants.get(match[1] as string) ?? []);
}

/**
 * Control Tower rule folders that the app leaves out although one of their rule files names a
 * resource type of this template: each would be a rule that never runs.
 */
export function missingControlTowerRuleFolders(template: Template): string[] {
  const types = new Set(Object.values(template.toJSON().Resources as Record<string, { Type: string }>).map((resource) => resource.Type));
  const included = new Set<string>(CONTROL_TOWER_RULE_FOLDERS);
  return readdirSync(CONTROL_TOWER_RULES_DIR).filter((folder) => {
    if (included.has(folder)) return false;
    const evaluated = readdirSync(path.join(CONTROL_TOWER_RULES_DIR, folder)).flatMap((file) =>
      evaluatedTypes(readFileSync(path.join(CONTROL_TOWER_RULES_DIR, folder, file), 'utf8')),
    );
    return evaluated.some((type) => types.has(type));
  });
}

/** Written into the shared assembly folder when its synthesis ends, whatever the outcome. */
const SYNTH_STATUS_FILE = 'synth-status.json';
interface SynthStatus {
  /** The CLI's exit code: 0 when the assembly is complete. */
  code: number | null;
  /** Everything it wrote on stderr (the CLI writes nothing on stdout under `--quiet`). */
  stderr: string;
}

/** `npx cdk synth --quiet --output dir`, exactly as a developer runs it; its status file is written whole, then renamed. */
async function synthesizeInto(dir: string): Promise<void> {
  const child = spawn('npx', ['cdk', 'synth', '--quiet', '--output', dir], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolveExit) => {
    child.on('error', (error) => {
      stderr += `npx did not start: ${error.message}`;
      resolveExit(null);
    });
    child.on('close', resolveExit);
  });
  const status: SynthStatus = { code, stderr };
  writeFileSync(path.join(dir, `${SYNTH_STATUS_FILE}.partial`), JSON.stringify(status));
  renameSync(path.join(dir, `${SYNTH_STATUS_FILE}.partial`), path.join(dir, SYNTH_STATUS_FILE));
}

/**
 * The run's one bundled assembly (test/infra/global-setup.ts gives the folder): the first
 * caller synthesizes it, the others wait for its status file. Resolves to the folder and what
 * the synthesis wrote on stderr; throws its output when it failed.
 */
export async function sharedSynthesis(): Promise<{ dir: string; stderr: string }> {
  const dir = inject('assemblyDir');
  const statusFile = path.join(dir, SYNTH_STATUS_FILE);
  let claimed = true;
  try {
    mkdirSync(path.join(dir, 'synthesizing'));
  } catch {
    claimed = false;
  }
  if (claimed) await synthesizeInto(dir);
  // Another test file's worker synthesizes: its status file is the one signal it has ended.
  else while (!existsSync(statusFile)) await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  const status = JSON.parse(readFileSync(statusFile, 'utf8')) as SynthStatus;
  if (status.code !== 0)
    throw new Error(
      `npx cdk synth --quiet --output ${dir} failed (exit ${status.code}); the end of its output:\n${status.stderr.trimEnd().split('\n').slice(-40).join('\n')}`,
    );
  return { dir, stderr: status.stderr };
}

/** The folder of the run's one bundled assembly (`sharedSynthesis`). */
export async function sharedAssembly(): Promise<string> {
  return (await sharedSynthesis()).dir;
}
