import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ScheduledEvent } from 'aws-lambda';
import type { JobCommand } from '../lib/jobs/command';
import { jobs } from '../lib/routes';
import { repoRoot } from './runtime';

/**
 * The scheduled jobs as the local runners see them: `npm start` runs each on its schedule
 * (local/scheduler.ts) and `npm run job` runs one on demand (scripts/job.ts). Both read the
 * manifest's `jobs`, as the stack does, so a new job is a manifest entry and its files.
 */

/** A manifest job: what the local runners need of it. */
export interface LocalJob {
  name: string;
  /** Source file of the Lambda handler, relative to the repository root. */
  handler: string;
  /** Daily, UTC. */
  schedule: { hour: number; minute: number };
  /** Off unless turned on: `npm start` leaves it to `npm run job`. */
  optional?: boolean;
  summary: string;
}

/** The manifest's jobs (`jobs` in lib/routes/background.ts), in manifest order. */
export const manifestJobs: readonly LocalJob[] = Object.values(jobs);

export interface JobModule {
  /** The Lambda handler, on the event EventBridge sends at the scheduled time. */
  handler: (event: ScheduledEvent) => Promise<unknown>;
  command?: JobCommand;
}

export type LoadJob = (job: LocalJob) => Promise<JobModule>;

/** The job's handler file, the same module the stack bundles, imported in process. */
export const loadJob: LoadJob = async (job) => {
  const module = (await import(pathToFileURL(join(repoRoot, job.handler)).href)) as Partial<JobModule>;
  if (typeof module.handler !== 'function') throw new Error(`${job.handler} does not export a handler function`);
  return module as JobModule;
};

/** The event an EventBridge schedule sends its target (the fields the handlers read). */
export function scheduledEvent(job: LocalJob, nowMs: number): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: process.env.AWS_REGION ?? 'us-east-1',
    resources: [`arn:aws:events:local:000000000000:rule/${job.name}`],
    detail: {},
  };
}

/** `{ counters: 3, products: 2 }` -> `counters=3 products=2`: a job's result on one line. */
export function describeResult(result: unknown): string {
  if (result === undefined || result === null) return 'done';
  if (typeof result !== 'object') return JSON.stringify(result) ?? 'done';
  return Object.entries(result)
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' ');
}

/** Run a job once as its schedule does: its handler on a scheduled event. Resolves to its result on one line. */
export async function runScheduled(job: LocalJob, load: LoadJob, nowMs: number): Promise<string> {
  const { handler } = await load(job);
  return describeResult(await handler(scheduledEvent(job, nowMs)));
}

/** No job of that name: the message is the usage text. */
export class UnknownJob extends Error {}

/** The text `npm run job` prints for a missing or unknown job name: every job with its options. */
export async function jobUsage(list: readonly LocalJob[], load: LoadJob): Promise<string> {
  const known = await Promise.all(
    list.map(async (job) => {
      const { command } = await load(job);
      return `  ${[job.name, command?.usage].filter(Boolean).join(' ')}  ${job.summary}`;
    }),
  );
  return `usage: npm run job -- <name> [options]\njobs:\n${known.join('\n')}`;
}

/** The job named on the command line; an unknown or missing name rejects with the usage. */
export async function findJob(list: readonly LocalJob[], load: LoadJob, name: string | undefined): Promise<LocalJob> {
  const job = list.find((candidate) => candidate.name === name);
  if (!job) throw new UnknownJob(await jobUsage(list, load));
  return job;
}

/**
 * `npm run job -- <name> [args]`: the job's own command when its handler file exports one,
 * else its handler as the schedule runs it. Resolves to the line to print.
 */
export async function runJobOnce(job: LocalJob, load: LoadJob, args: string[], nowMs: number): Promise<string> {
  const module = await load(job);
  if (module.command) return `${job.name}: ${await module.command.run(args, nowMs)}`;
  if (args.length > 0) throw new Error(`${job.name} takes no options`);
  return `${job.name}: ${describeResult(await module.handler(scheduledEvent(job, nowMs)))}`;
}
