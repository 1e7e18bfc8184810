/**
 * A background job that has not ended yet, as its pending-job marker records it
 * (lib/background/pending-jobs-repository; ./pending-jobs says what the markers are for).
 */
export type PendingJobKind = 'import' | 'export';

export interface PendingJob {
  tenantId: string;
  jobId: string;
  kind: PendingJobKind;
  /** The user who started it. */
  userId: string;
  /** The role the job needed (an import or an audit export: ADMIN). */
  role: 'ADMIN' | 'MEMBER';
  createdAt: string;
}
