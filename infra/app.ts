import { createBackofficeApp } from './backoffice-app';

/**
 * aws-cdk-lib writes `Bundling asset <construct path>...` on stderr for every function it
 * bundles, about fifty lines a synth, `--quiet` or not. They report progress, not a problem:
 * this entry point leaves them out, so what synth prints (esbuild's warnings and errors, the
 * annotations) is what needs action. The app is the CLI's child process, so nothing else
 * writes through this stream.
 */
function dropBundlingProgress(): void {
  const write = process.stderr.write.bind(process.stderr) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const progress = /^Bundling asset \S+\.\.\.\n$/;
  process.stderr.write = (chunk: unknown, ...rest: unknown[]) => (typeof chunk === 'string' && progress.test(chunk) ? true : write(chunk, ...rest));
}

/**
 * CDK entry point (`cdk synth -c stage=dev|prod`). The stack is environment-agnostic: no
 * account or region is pinned and nothing is looked up, so synthesis works offline. The
 * AWS Solutions checks (cdk-nag) run as a validation plugin: synthesis fails on any finding
 * that is not acknowledged with a reason.
 */
dropBundlingProgress();
createBackofficeApp().app.synth();
