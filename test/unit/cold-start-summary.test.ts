import { describe, expect, it } from 'vitest';
import { BASELINE_NAME, type ColdStartFigure, summarize, TARGETS } from '../../bench/cold-start';

/** The cold-start bench's verdict: ours against the targets, CDK's handlers listed beside them and judged by none. */
const figure = (name: string, ratio: number, bytes: number, extra: Partial<ColdStartFigure> = {}): ColdStartFigure => ({
  name,
  bytes,
  medianMs: 10 * ratio,
  overBaselineMs: 10 * (ratio - 1),
  ratio,
  targetRatio: TARGETS.functionRatio,
  maxBytes: TARGETS.maxBundleBytes,
  worker: false,
  met: ratio <= TARGETS.functionRatio && bytes <= TARGETS.maxBundleBytes,
  ...extra,
});

const baseline = figure(BASELINE_NAME, 1, 250_000, { targetRatio: null });
const authorizer = figure('authorizer', 1.05, 300_000, { targetRatio: TARGETS.authorizerRatio });

describe('summarize', () => {
  it("leaves CDK's handlers out of every target, however large or slow", () => {
    const cdk = figure('CDK Backoffice-dev/AutoDeleteHandler (nodejs22.x)', 4, 2_000_000, {
      targetRatio: null,
      maxBytes: Infinity,
      cdk: { runtime: 'nodejs22.x' },
      met: true,
    });
    const result = summarize([baseline, authorizer, figure('GET /auth/me', 1.1, 310_000), cdk]);
    expect(result.met).toEqual({ authorizer: true, everyFunction: true, median: true, bundleSizes: true, workers: true });
    expect(result.worst).toEqual({ name: 'GET /auth/me', ratio: 1.1 });
    expect(result.largestBundle).toEqual({ name: 'GET /auth/me', bytes: 310_000 });
  });

  it('fails a route function over its ratio or its size', () => {
    const result = summarize([baseline, authorizer, figure('POST /tenants/{id}/export', 1.6, 420_000)]);
    expect(result.met.everyFunction).toBe(false);
    expect(result.met.bundleSizes).toBe(false);
    expect(result.worst.name).toBe('POST /tenants/{id}/export');
  });
});
