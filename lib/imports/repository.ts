import { GetCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { IMPORT_RETENTION_DAYS, type ImportCounts, type ImportJob, type RowError } from './model';
import type { AuditRecord } from '../audit/model';
import { db, tableName } from '../db/client';
import { conditionally } from '../db/conditions';
import { IMPORT_ITEMS } from '../db/item-types';
import { epochSeconds, fieldsOf, pick } from '../db/items';
import { keys } from '../db/keys';
import { pendingJobPut } from '../background/pending-jobs-repository';
import { writeWithEntry } from '../audit/repository';

/**
 * CSV import jobs (lib/imports): one item per job in its tenant's partition, expiring
 * IMPORT_RETENTION_DAYS after it was made. Its steps move it on with writes conditioned on the
 * row they started from (`nextRow`), so a step run twice (a queue delivers at least once)
 * counts its rows once.
 */

const FIELDS = fieldsOf<ImportJob>()([
  'id',
  'tenantId',
  'kind',
  'dryRun',
  'status',
  'fileName',
  'size',
  'totalRows',
  'fileDigest',
  'ignoredColumns',
  'nextRow',
  'rowsDone',
  'created',
  'existing',
  'refused',
  'errors',
  'errorsTruncated',
  'failure',
  'createdBy',
  'createdAt',
  'startedAt',
  'finishedAt',
  'origin',
]);

const keyOf = (job: Pick<ImportJob, 'tenantId' | 'id'>) => keys.importJob(job.tenantId, job.id);

const jobItem = (job: ImportJob) => ({ ...keyOf(job), type: IMPORT_ITEMS.job, ...job, ttl: epochSeconds(job.createdAt) + IMPORT_RETENTION_DAYS * 24 * 3600 });

/**
 * A new job with its pending-job marker (lib/background), and its audit entry when one is given
 * (POST /imports), in one transaction.
 */
export async function insertImportJob(job: ImportJob, audit?: AuditRecord): Promise<void> {
  const put = { TableName: tableName(), Item: jobItem(job), ConditionExpression: 'attribute_not_exists(pk)' };
  const marker = pendingJobPut({ tenantId: job.tenantId, jobId: job.id, kind: 'import', userId: job.createdBy.id, role: 'ADMIN', createdAt: job.createdAt });
  if (audit) await writeWithEntry([{ Put: put }, marker], audit);
  else await db().send(new TransactWriteCommand({ TransactItems: [{ Put: put }, marker] }));
}

export async function findImportJob(tenantId: string, importId: string): Promise<ImportJob | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.importJob(tenantId, importId), ConsistentRead: true }));
  return Item ? pick<ImportJob>(Item, FIELDS) : undefined;
}

/** Its file came: running, with its row count. False when it was started already (or has failed): nothing is written. */
export function startImportJob(
  job: Pick<ImportJob, 'tenantId' | 'id'>,
  file: { totalRows: number; ignoredColumns: string[]; fileDigest: string },
  startedAt: string,
): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(job),
        UpdateExpression: 'SET #status = :running, totalRows = :total, ignoredColumns = :ignored, fileDigest = :digest, startedAt = :at',
        ConditionExpression: '#status = :waiting',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':running': 'running',
          ':waiting': 'awaiting_upload',
          ':total': file.totalRows,
          ':ignored': file.ignoredColumns,
          ':digest': file.fileDigest,
          ':at': startedAt,
        },
      }),
    ),
  );
}

/** What one step read: the rows it counted, its refused rows to list, and whether the job is done. */
export interface StepOutcome extends ImportCounts {
  toRow: number;
  errors: RowError[];
  errorsTruncated: boolean;
  finishedAt: string | null;
}

/**
 * Record a step from `fromRow`: the counts added, the errors appended, the next row, and
 * `succeeded` when it was the last. False when the job is no longer at `fromRow` (another run
 * of the same step recorded it first): nothing is written.
 */
export function recordImportStep(job: Pick<ImportJob, 'tenantId' | 'id'>, fromRow: number, step: StepOutcome): Promise<boolean> {
  const finished = step.finishedAt !== null;
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(job),
        UpdateExpression:
          'SET nextRow = :to, rowsDone = rowsDone + :done, created = created + :created, existing = existing + :existing, refused = refused + :refused, ' +
          `errors = list_append(errors, :errors), errorsTruncated = :truncated${finished ? ', #status = :succeeded, finishedAt = :finishedAt' : ''}`,
        ConditionExpression: '#status = :running AND nextRow = :from',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':to': step.toRow,
          ':from': fromRow,
          ':running': 'running',
          ':done': step.rowsDone,
          ':created': step.created,
          ':existing': step.existing,
          ':refused': step.refused,
          ':errors': step.errors,
          ':truncated': step.errorsTruncated,
          ...(finished ? { ':succeeded': 'succeeded', ':finishedAt': step.finishedAt } : {}),
        },
      }),
    ),
  );
}

/** The job failed (its file is not readable CSV, or never came): `failure` says why. False when it had finished already. */
export function failImportJob(job: Pick<ImportJob, 'tenantId' | 'id'>, failure: string, finishedAt: string): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(job),
        UpdateExpression: 'SET #status = :failed, failure = :failure, finishedAt = :at',
        ConditionExpression: '#status IN (:waiting, :running)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':failure': failure, ':at': finishedAt, ':waiting': 'awaiting_upload', ':running': 'running' },
      }),
    ),
  );
}

/**
 * The jobs left `running` in the whole store: npm start only (local/imports.ts), which runs a
 * job's steps in its own process and so loses them when it stops. A Scan, which a store of
 * development data makes cheap; deployed, each step is a queue message and nothing is lost.
 */
export async function scanRunningImportJobs(): Promise<ImportJob[]> {
  const found: ImportJob[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type = :job AND #status = :running',
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: { ':job': IMPORT_ITEMS.job, ':running': 'running' },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    found.push(...(page.Items ?? []).map((item) => pick<ImportJob>(item, FIELDS)));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}
