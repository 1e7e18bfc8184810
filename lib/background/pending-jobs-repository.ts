import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { PendingJob } from './model';
import { db, tableName, type TransactItem } from '../db/client';
import { epochSeconds } from '../db/items';
import { keys } from '../db/keys';
import { queryAll } from '../db/query';

/**
 * The pending-job markers (lib/background/pending-jobs says what they are for): one small item
 * per background job that has not ended, in its tenant's partition, expiring after
 * PENDING_JOB_DAYS, longer than any job runs.
 */

export const PENDING_JOB_ITEM = 'PendingJob';
const PENDING_JOB_DAYS = 2;

/** The marker's put, for the job's creating transaction. */
export function pendingJobPut(job: PendingJob): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.pendingJob(job.tenantId, job.jobId), type: PENDING_JOB_ITEM, ...job, ttl: epochSeconds(job.createdAt) + PENDING_JOB_DAYS * 24 * 3600 },
    },
  };
}

/** The job ended: its marker goes. A failure to remove it is left to the expiry (a marker of an ended job is harmless). */
export async function endPendingJob(tenantId: string, jobId: string): Promise<void> {
  await db()
    .send(new DeleteCommand({ TableName: tableName(), Key: keys.pendingJob(tenantId, jobId) }))
    .catch(() => undefined);
}

/** The tenant's markers (a few items: one Query, consistent). */
export async function readPendingJobs(tenantId: string): Promise<PendingJob[]> {
  const { pk, skPrefix } = keys.pendingJobsOf(tenantId);
  return (await queryAll(pk, { skPrefix, consistent: true })).map((item) => ({
    tenantId: String(item.tenantId),
    jobId: String(item.jobId),
    kind: item.kind as PendingJob['kind'],
    userId: String(item.userId),
    role: item.role === 'ADMIN' ? 'ADMIN' : 'MEMBER',
    createdAt: String(item.createdAt),
  }));
}
