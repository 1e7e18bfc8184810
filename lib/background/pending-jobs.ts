import { failExportJob } from '../exports/repository';
import { failImportJob } from '../imports/repository';
import { endPendingJob, readPendingJobs } from './pending-jobs-repository';

/**
 * The tenant's background jobs that have not ended, one small marker item each beside the job
 * (lib/background/pending-jobs-repository): what removing a user, demoting one, or closing the tenant
 * reads (one Query of a few items) to fail their jobs at once, rather than reading every job the
 * tenant kept for 30 days.
 *
 * The marker is written in the job's own transaction and removed when the job ends; a marker
 * left by a job that ended without removing it (a crash between the two writes) is harmless:
 * failing an ended job changes nothing (its write is conditioned on a pending status). The
 * guarantee is the check every step makes (./authority): the markers only make the job's status
 * say so at once.
 */

export { endPendingJob };

/** Which pending jobs lose their authority: a user's (removed), a user's that needed an administrator (demoted), or all (the tenant closed). */
export type PendingJobsLost = { userId: string; onlyAdminJobs: boolean } | 'all';

/** Fail the tenant's pending jobs that `lost` names, with `failure` as their reason; the number failed. A job that ended meanwhile stays as it ended. */
export async function failPendingJobs(tenantId: string, lost: PendingJobsLost, failure: string, nowIso: string): Promise<number> {
  const chosen = (await readPendingJobs(tenantId)).filter(
    (job) => lost === 'all' || (job.userId === lost.userId && (!lost.onlyAdminJobs || job.role === 'ADMIN')),
  );
  const failed = await Promise.all(
    chosen.map(async (job) => {
      const ref = { tenantId, id: job.jobId };
      const done = job.kind === 'import' ? await failImportJob(ref, failure, nowIso) : await failExportJob(ref, failure, 0, nowIso);
      await endPendingJob(tenantId, job.jobId);
      return done;
    }),
  );
  return failed.filter(Boolean).length;
}
