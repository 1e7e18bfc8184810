import type { ScheduledEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as integrityCheck from '../../functions/jobs/integrity-check';
import * as salesRollup from '../../functions/jobs/sales-rollup';
import { allTenantIds, verifyTenant } from '../../lib/integrity/engine';
import type { Drift, TenantReport } from '../../lib/integrity/model';
import { logger } from '../../lib/log';
import { countIntegrityDrift } from '../../lib/metrics';
import type * as Metrics from '../../lib/metrics';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import type * as SalesRollupJob from '../../lib/jobs/sales-rollup';
import { jobs } from '../../lib/routes';
import { findJob, type JobModule, type LoadJob, type LocalJob, manifestJobs, runJobOnce, scheduledEvent, UnknownJob } from '../../local/jobs';
import { startSchedules } from '../../local/scheduler';

// The roll-up itself runs against DynamoDB Local in test/integration; here its result is given.
vi.mock('../../lib/jobs/sales-rollup', async (importOriginal) => ({ ...(await importOriginal<typeof SalesRollupJob>()), runSalesRollup: vi.fn() }));
// The checker runs against DynamoDB Local in test/integration/verify.test.ts; here its reports are given.
vi.mock('../../lib/integrity/engine', () => ({ allTenantIds: vi.fn(), verifyTenant: vi.fn() }));
vi.mock('../../lib/metrics', async (importOriginal) => ({ ...(await importOriginal<typeof Metrics>()), countIntegrityDrift: vi.fn() }));

/** Two jobs, as a manifest with a second scheduled job would list them. */
const rollup: LocalJob = { name: 'rollup', handler: 'functions/jobs/rollup.ts', schedule: { hour: 3, minute: 15 }, summary: 'Roll up' };
const digest: LocalJob = { name: 'digest', handler: 'functions/jobs/digest.ts', schedule: { hour: 4, minute: 30 }, summary: 'Send the digest' };
const twoJobs = [rollup, digest];

/** Fake handler files: each handler records the scheduled times it ran for; only the roll-up has a command. */
function fakeJobFiles() {
  const ran: Record<string, string[]> = { rollup: [], digest: [] };
  const commandArgs: string[][] = [];
  const modules: Record<string, JobModule> = {
    rollup: {
      handler: async (event: ScheduledEvent) => {
        ran.rollup?.push(event.time);
        return { counters: 2, products: 1 };
      },
      command: {
        usage: '[--date YYYY-MM-DD]',
        run: async (args) => {
          commandArgs.push(args);
          return 'rolled up';
        },
      },
    },
    digest: {
      handler: async (event: ScheduledEvent) => {
        ran.digest?.push(event.time);
        return { sent: 3 };
      },
    },
  };
  const load: LoadJob = async (job) => {
    const module = modules[job.name];
    if (!module) throw new Error(`no module for ${job.name}`);
    return module;
  };
  return { ran, commandArgs, load };
}

describe('local scheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-11-23T02:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every job of the list at start, then each at its own UTC time', async () => {
    const { ran, load } = fakeJobFiles();
    const lines: string[] = [];

    const stop = startSchedules((line) => lines.push(line), { jobs: twoJobs, loadJob: load });
    await vi.advanceTimersByTimeAsync(0);

    expect(ran).toEqual({ rollup: ['2026-11-23T02:00:00Z'], digest: ['2026-11-23T02:00:00Z'] });
    expect(lines.sort()).toEqual(['[job] digest: sent=3', '[job] rollup: counters=2 products=1']);

    await vi.advanceTimersByTimeAsync(75 * 60_000);
    expect(ran).toEqual({ rollup: ['2026-11-23T02:00:00Z', '2026-11-23T03:15:00Z'], digest: ['2026-11-23T02:00:00Z'] });

    await vi.advanceTimersByTimeAsync(75 * 60_000);
    expect(ran).toEqual({ rollup: ['2026-11-23T02:00:00Z', '2026-11-23T03:15:00Z'], digest: ['2026-11-23T02:00:00Z', '2026-11-23T04:30:00Z'] });

    stop();
    await vi.advanceTimersByTimeAsync(48 * 3600_000);
    expect(ran.rollup).toHaveLength(2);
    expect(ran.digest).toHaveLength(2);
  });

  it('leaves an optional job to `npm run job`: it is deployed disabled unless a stage turns it on', async () => {
    const { ran, load } = fakeJobFiles();
    const stop = startSchedules(() => undefined, { jobs: [rollup, { ...digest, optional: true }], loadJob: load });
    await vi.advanceTimersByTimeAsync(48 * 3600_000);
    stop();
    expect(ran.rollup).toHaveLength(3);
    expect(ran.digest).toEqual([]);
    expect(manifestJobs.filter((job) => job.optional).map((job) => job.name)).toEqual(['integrity-check']);
  });

  it('logs a failed job and keeps the others on schedule', async () => {
    const { ran, load } = fakeJobFiles();
    const failing: LoadJob = async (job) => (job.name === 'rollup' ? { handler: () => Promise.reject(new Error('table unreachable')) } : load(job));
    const lines: string[] = [];

    const stop = startSchedules((line) => lines.push(line), { jobs: twoJobs, loadJob: failing });
    await vi.advanceTimersByTimeAsync(0);
    stop();

    expect(lines.sort()).toEqual(['[job] digest: sent=3', '[job] rollup failed: table unreachable']);
    expect(ran.digest).toEqual(['2026-11-23T02:00:00Z']);
  });
});

describe('npm run job', () => {
  const NOW = Date.parse('2026-11-23T12:00:00.000Z');

  it("hands a job's options to its own command", async () => {
    const { commandArgs, ran, load } = fakeJobFiles();

    const line = await runJobOnce(await findJob(twoJobs, load, 'rollup'), load, ['--date', '2026-11-20'], NOW);

    expect(line).toBe('rollup: rolled up');
    expect(commandArgs).toEqual([['--date', '2026-11-20']]);
    expect(ran.rollup).toEqual([]);
  });

  it('runs a job without a command as its schedule does, and refuses options for it', async () => {
    const { ran, load } = fakeJobFiles();
    const job = await findJob(twoJobs, load, 'digest');

    await expect(runJobOnce(job, load, [], NOW)).resolves.toBe('digest: sent=3');
    await expect(runJobOnce(job, load, ['--date', '2026-11-20'], NOW)).rejects.toThrow('digest takes no options');
    expect(ran.digest).toEqual(['2026-11-23T12:00:00Z']);
  });

  it('answers an unknown or missing name with every job of the list and its options', async () => {
    const { load } = fakeJobFiles();
    const usage = 'usage: npm run job -- <name> [options]\njobs:\n  rollup [--date YYYY-MM-DD]  Roll up\n  digest  Send the digest';

    for (const name of ['rolup', undefined]) {
      const error: unknown = await findJob(twoJobs, load, name).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(UnknownJob);
      expect(error).toMatchObject({ message: usage });
    }
  });
});

describe('the manifest jobs', () => {
  it('are every entry of `jobs`, each with a handler file of the shape the local runners load', () => {
    expect(manifestJobs.map((job) => job.name)).toEqual(Object.values(jobs).map((job) => job.name));
    // A compile-time check as much as a runtime one: the sales roll-up's file is a JobModule.
    const module: JobModule = salesRollup;
    expect(module.command?.usage).toBe('[--date YYYY-MM-DD]');
  });

  it('refuses a malformed --date of the sales roll-up before touching the store', async () => {
    await expect(salesRollup.command.run(['--date', '20/11/2026'], Date.now())).rejects.toThrow("--date must be a day as YYYY-MM-DD, not '20/11/2026'");
    await expect(salesRollup.command.run(['--day', '2026-11-20'], Date.now())).rejects.toThrow(/--day/);
  });
});

describe('the sales roll-up job over skipped bad records', () => {
  const job = manifestJobs.find((candidate) => candidate.name === 'sales-rollup') as LocalJob;
  const load: LoadJob = async () => salesRollup;
  const NOW = Date.parse('2026-11-22T03:15:00.000Z');
  const skippedMessage =
    'sales roll-up skipped 3 pending counters with bad stored records (left pending, logged as errors); 5 daily counters of 2 products rolled up (days before 2026-11-22); coverage index current for 4 tenants (7 products moved)';

  beforeEach(() => {
    vi.mocked(runSalesRollup).mockReset();
  });

  it('fails the invocation, naming how many were skipped, after the roll-up ran to its end', async () => {
    vi.mocked(runSalesRollup).mockResolvedValue({ today: '2026-11-22', counters: 5, products: 2, skipped: 3, coverage: { tenants: 4, products: 7 } });

    await expect(salesRollup.handler(scheduledEvent(job, NOW))).rejects.toThrow(new Error(skippedMessage));
    expect(vi.mocked(runSalesRollup).mock.calls).toEqual([[{ nowMs: NOW }]]);
  });

  it('names a single skipped counter in the singular', async () => {
    vi.mocked(runSalesRollup).mockResolvedValue({ today: '2026-11-22', counters: 0, products: 0, skipped: 1, coverage: { tenants: 4, products: 7 } });

    await expect(salesRollup.handler(scheduledEvent(job, NOW))).rejects.toThrow(
      new Error(
        'sales roll-up skipped 1 pending counter with bad stored records (left pending, logged as errors); 0 daily counters of 0 products rolled up (days before 2026-11-22); coverage index current for 4 tenants (7 products moved)',
      ),
    );
  });

  it('resolves to its result when nothing was skipped', async () => {
    vi.mocked(runSalesRollup).mockResolvedValue({ today: '2026-11-22', counters: 5, products: 2, skipped: 0, coverage: { tenants: 4, products: 7 } });

    await expect(salesRollup.handler(scheduledEvent(job, NOW))).resolves.toEqual({
      today: '2026-11-22',
      counters: 5,
      products: 2,
      coverage: { tenants: 4, products: 7 },
    });
    await expect(runJobOnce(job, load, [], NOW)).resolves.toBe(
      'sales-rollup: 5 daily counters of 2 products rolled up (days before 2026-11-22); coverage index current for 4 tenants (7 products moved)',
    );
  });

  it('names the one day `--date` rolled up, and counts of one in the singular', async () => {
    vi.mocked(runSalesRollup).mockResolvedValue({
      today: '2026-11-25',
      day: '2026-11-20',
      counters: 1,
      products: 1,
      skipped: 0,
      coverage: { tenants: 1, products: 0 },
    });

    await expect(runJobOnce(job, load, ['--date', '2026-11-20'], NOW)).resolves.toBe(
      'sales-rollup: 1 daily counter of 1 product rolled up (2026-11-20 only); coverage index current for 1 tenant (0 products moved)',
    );
    expect(vi.mocked(runSalesRollup).mock.calls).toEqual([[{ nowMs: NOW, day: '2026-11-20' }]]);
  });

  it('shows the skipped count as a failure in the local scheduler and in `npm run job`', async () => {
    vi.mocked(runSalesRollup).mockResolvedValue({ today: '2026-11-22', counters: 5, products: 2, skipped: 3, coverage: { tenants: 4, products: 7 } });
    vi.useFakeTimers({ now: NOW });
    try {
      const lines: string[] = [];
      const stop = startSchedules((line) => lines.push(line), { jobs: [job], loadJob: load });
      await vi.advanceTimersByTimeAsync(0);
      stop();
      expect(lines).toEqual([`[job] sales-rollup failed: ${skippedMessage}`]);
    } finally {
      vi.useRealTimers();
    }

    await expect(runJobOnce(job, load, ['--date', '2026-11-20'], NOW)).rejects.toThrow(new Error(skippedMessage));
    expect(vi.mocked(runSalesRollup).mock.calls).toEqual([[{ nowMs: NOW }], [{ nowMs: NOW, day: '2026-11-20' }]]);
  });
});

describe('the scheduled integrity check', () => {
  const event = { time: '2026-11-23T05:00:00Z' } as ScheduledEvent;
  const tenants = (...ids: string[]) =>
    vi.mocked(allTenantIds).mockImplementation(async function* () {
      yield* ids;
    });
  const drift = (detail: string): Drift => ({ invariant: 'warehouse-totals', keys: [{ pk: 'TENANT#b', sk: 'WAREHOUSE#w' }], detail, fixable: true });
  const report = (tenantId: string, found: Drift[]): TenantReport => ({
    tenantId,
    invariants: [{ invariant: 'warehouse-totals', checked: 1, drift: found }],
    fixed: [],
  });
  beforeEach(() => {
    vi.mocked(verifyTenant).mockReset();
    vi.mocked(countIntegrityDrift).mockReset();
  });

  it('checks every tenant without fixing, and reports a clean run as 0 drift', async () => {
    tenants('a', 'b');
    vi.mocked(verifyTenant).mockImplementation(async (tenantId) => report(tenantId, []));
    await expect(integrityCheck.handler(event)).resolves.toEqual({ tenants: 2, drifted: 0, drift: 0, complete: true });
    expect(vi.mocked(verifyTenant).mock.calls).toEqual([['a'], ['b']]);
    expect(vi.mocked(countIntegrityDrift).mock.calls).toEqual([[0]]);
  });

  it('fails on drift, after checking every tenant, each drift logged with its keys and the total in the metric', async () => {
    tenants('a', 'b', 'c');
    vi.mocked(verifyTenant).mockImplementation(async (tenantId) =>
      report(tenantId, tenantId === 'b' ? [drift('total off by 0.01'), drift('count 3, 2 found')] : []),
    );
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      await expect(integrityCheck.handler(event)).rejects.toThrow(
        new Error('integrity check: 2 drifts in 1 tenant of 3 tenants checked (each logged with its keys)'),
      );
      expect(errors.mock.calls).toEqual([
        [
          'integrity drift',
          { tenantId: 'b', invariant: 'warehouse-totals', detail: 'total off by 0.01', keys: [{ pk: 'TENANT#b', sk: 'WAREHOUSE#w' }], fixable: true },
        ],
        [
          'integrity drift',
          { tenantId: 'b', invariant: 'warehouse-totals', detail: 'count 3, 2 found', keys: [{ pk: 'TENANT#b', sk: 'WAREHOUSE#w' }], fixable: true },
        ],
      ]);
    } finally {
      errors.mockRestore();
    }
    expect(vi.mocked(verifyTenant).mock.calls).toEqual([['a'], ['b'], ['c']]);
    expect(vi.mocked(countIntegrityDrift).mock.calls).toEqual([[2]]);
  });

  it('stops starting tenants a minute before its timeout and says the run was cut short', async () => {
    tenants('a', 'b', 'c');
    vi.mocked(verifyTenant).mockImplementation(async (tenantId) => report(tenantId, []));
    const remaining = [120_000, 90_000, 30_000];
    const context = { getRemainingTimeInMillis: () => remaining.shift() ?? 0 } as unknown as Parameters<typeof integrityCheck.handler>[1];
    await expect(integrityCheck.handler(event, context)).resolves.toEqual({ tenants: 2, drifted: 0, drift: 0, complete: false });
  });
});
