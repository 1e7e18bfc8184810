import { loadJob, type LoadJob, type LocalJob, manifestJobs, runScheduled } from './jobs';

/** Milliseconds from `nowMs` to the next time a daily UTC schedule fires. */
export function msUntilNext(schedule: { hour: number; minute: number }, nowMs: number): number {
  const next = new Date(nowMs);
  next.setUTCHours(schedule.hour, schedule.minute, 0, 0);
  if (next.getTime() <= nowMs) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - nowMs;
}

export interface ScheduleOptions {
  /** The manifest's jobs by default. */
  jobs?: readonly LocalJob[];
  /** Their handler files by default. */
  loadJob?: LoadJob;
}

/**
 * The jobs' schedules, run locally by `npm start` as EventBridge runs them on AWS: each job's
 * handler on a scheduled event at its UTC time. Every job also runs once at start, to catch
 * up on the days the laptop was off: the jobs are idempotent and catch up on missed runs
 * (the stack retries them), so an extra run changes nothing.
 */
export function startSchedules(log: (line: string) => void, options: ScheduleOptions = {}): () => void {
  const load = options.loadJob ?? loadJob;
  const timers = new Map<string, NodeJS.Timeout>();
  const run = (job: LocalJob) => {
    runScheduled(job, load, Date.now())
      .then((summary) => log(`[job] ${job.name}: ${summary}`))
      .catch((error: unknown) => log(`[job] ${job.name} failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  const arm = (job: LocalJob) => {
    const timer = setTimeout(
      () => {
        run(job);
        arm(job);
      },
      msUntilNext(job.schedule, Date.now()),
    );
    timer.unref();
    timers.set(job.name, timer);
  };
  // An optional job's rule is deployed disabled: here too it runs only on demand (npm run job).
  for (const job of (options.jobs ?? manifestJobs).filter((candidate) => !candidate.optional)) {
    run(job);
    arm(job);
  }
  return () => {
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
