import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { createBackofficeApp } from '../../infra/backoffice-app';
import { fromRoot } from '../../infra/paths';
import type { BackofficeStack } from '../../infra/stack';

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
): { template?: Template; report: ValidationReport; error?: Error } {
  const outdir = mkdtempSync(path.join(tmpdir(), 'backoffice-variant-'));
  const { app, stack } = createBackofficeApp({ outdir, context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context } });
  extend?.(stack);
  let template: Template | undefined;
  let error: Error | undefined;
  try {
    template = Template.fromJSON(app.synth().getStackByName(stack.stackName).template as Record<string, unknown>);
  } catch (caught) {
    error = caught as Error;
  }
  const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  rmSync(outdir, { recursive: true, force: true });
  return { report, ...(template ? { template } : {}), ...(error ? { error } : {}) };
}
