import { DeleteCommand, GetCommand, QueryCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { TENANT_EXPORT_FILE_DAYS, type DeletionProgress, type ScanCursor, type TenantExport } from './model';
import type { Tenant } from '../tenants/model';
import { db, tableName, type TransactItem } from '../db/client';
import { conditionally, failedConditions } from '../db/conditions';
import { USER_ITEMS } from '../db/item-types';
import { epochSeconds } from '../db/items';
import { keys } from '../db/keys';
import { queryAll } from '../db/query';
import { auditItems } from '../audit/repository';
import { deleteAll } from '../db/bulk';

/**
 * The tenant jobs' reads and writes (lib/tenant-jobs/engine): the table's Scan, the deletion
 * schedule, the deletion's progress on the tenant's item and the export jobs.
 */

/** The `type` attribute of the tenant jobs' items. */
export const TENANT_JOB_ITEMS = {
  deletionDue: 'TenantDeletionDue',
  export: 'TenantExport',
  exportRunning: 'TenantExportRunning',
  scanPosition: 'ScanPosition',
} as const;

/**
 * Where a job's Scan stands is kept in an item of its own (lib/db/keys `scanPosition`), never on
 * the job's item in the tenant's partition: the positions are keys of any item of the table,
 * another tenant's among them, and whatever sits in a tenant's partitions ends up in its export.
 * Written in the same transaction as the job's step, so the two always agree. It expires a day
 * after the job's item would.
 */
const SCAN_POSITION_DAYS = TENANT_EXPORT_FILE_DAYS + 2;
const deletionJobId = (tenantId: string) => `deletion-${tenantId}`;

function scanPositionPut(jobId: string, cursors: ScanCursor[], now: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.scanPosition(jobId),
        type: TENANT_JOB_ITEMS.scanPosition,
        cursors: JSON.stringify(cursors),
        ttl: epochSeconds(now) + SCAN_POSITION_DAYS * 24 * 3600,
      },
    },
  };
}

async function readScanPosition(jobId: string): Promise<ScanCursor[] | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.scanPosition(jobId), ConsistentRead: true }));
  return typeof Item?.cursors === 'string' ? (JSON.parse(Item.cursors) as ScanCursor[]) : undefined;
}

/** A deletion's progress as its tenant's item keeps it: everything but the Scan's position. */
const storedDeletionProgress = ({ cursors: _cursors, ...rest }: DeletionProgress) => JSON.stringify(rest);

/**
 * Up to `pages` pages of one segment of a parallel Scan of the whole table, from `cursor`:
 * their items and where the segment goes on (`'done'` after its last page). Eventually
 * consistent (half the read units) unless `consistent`: what a deletion pass might miss by it,
 * the second count, which is consistent, finds.
 */
export async function scanSegment(
  segment: number,
  segments: number,
  cursor: ScanCursor,
  pages: number,
  consistent = false,
): Promise<{ items: Record<string, unknown>[]; cursor: ScanCursor }> {
  if (cursor === 'done') return { items: [], cursor };
  const items: Record<string, unknown>[] = [];
  let startKey = cursor ?? undefined;
  for (let page = 0; page < pages; page += 1) {
    const result = await db().send(
      new ScanCommand({
        TableName: tableName(),
        Segment: segment,
        TotalSegments: segments,
        ExclusiveStartKey: startKey,
        ...(consistent ? { ConsistentRead: true } : {}),
      }),
    );
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
    if (!startKey) return { items, cursor: 'done' };
  }
  return { items, cursor: startKey ?? 'done' };
}

/** Delete items by key: BatchWriteItem 25 at a time, unprocessed items retried. */
export const deleteItems = (keyList: { pk: string; sk: string }[]): Promise<void> => deleteAll(keyList);

/** The closed tenants whose deletion is due at `now`, soonest first: their ids and due times. */
export async function dueDeletions(now: string, limit: number): Promise<{ tenantId: string; deletionDueAt: string }[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk <= :now',
      ExpressionAttributeValues: { ':pk': keys.tenantDeletionsDue().pk, ':now': `${now}#~` },
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => ({ tenantId: String(item.tenantId), deletionDueAt: String(item.deletionDueAt) }));
}

/** The tenant's item with its deletion's progress and step, or undefined once it is gone. */
export async function readDeletion(
  tenantId: string,
): Promise<{ tenant: Tenant & Record<string, unknown>; progress?: DeletionProgress; step: number; stepAt?: string } | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId), ConsistentRead: true }));
  if (!Item) return undefined;
  // A deletion started before the position was kept apart has its cursors in its progress.
  const stored =
    typeof Item.deletionProgress === 'string'
      ? (JSON.parse(Item.deletionProgress) as Omit<DeletionProgress, 'cursors'> & { cursors?: ScanCursor[] })
      : undefined;
  const cursors = stored ? ((await readScanPosition(deletionJobId(tenantId))) ?? stored.cursors) : undefined;
  return {
    tenant: Item as Tenant & Record<string, unknown>,
    ...(stored && cursors ? { progress: { ...stored, cursors } } : {}),
    step: typeof Item.deletionStep === 'number' ? Item.deletionStep : 0,
    ...(typeof Item.deletionStepAt === 'string' ? { stepAt: Item.deletionStepAt } : {}),
  };
}

/**
 * Start a due deletion: DELETING, with its first progress, conditioned on the tenant being
 * still CLOSED with this due time, and due at `now`. False when it is not (a reopen won the
 * race, or another run started it): nothing is written.
 */
export async function markTenantDeleting(tenantId: string, deletionDueAt: string, now: string, progress: DeletionProgress): Promise<boolean> {
  const update = {
    TableName: tableName(),
    Key: keys.tenant(tenantId),
    UpdateExpression:
      'SET #status = :deleting, deletionProgress = :progress, deletionStep = :zero, deletionStepAt = :now, deletionStartedAt = :now, updatedAt = :now',
    ConditionExpression: '#status = :closed AND deletionDueAt = :due AND deletionDueAt <= :now',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':deleting': 'DELETING',
      ':closed': 'CLOSED',
      ':due': deletionDueAt,
      ':now': now,
      ':progress': storedDeletionProgress(progress),
      ':zero': 0,
    },
  };
  return firstConditionHeld(
    db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, scanPositionPut(deletionJobId(tenantId), progress.cursors, now)] })),
  );
}

/** Await a transaction whose first item is the conditioned one: false when that condition failed (nothing was written). */
async function firstConditionHeld(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}

/**
 * Record a deletion step's progress (with an entry, when the step ends a phase that has one),
 * conditioned on the step being the stored one: false when another run of it recorded first.
 */
export async function recordDeletionStep(tenantId: string, step: number, progress: DeletionProgress, now: string, audit?: AuditRecord): Promise<boolean> {
  const update = {
    TableName: tableName(),
    Key: keys.tenant(tenantId),
    UpdateExpression: 'SET deletionProgress = :progress, deletionStep = :next, deletionStepAt = :now',
    ConditionExpression: 'deletionStep = :step',
    ExpressionAttributeValues: { ':progress': storedDeletionProgress(progress), ':step': step, ':next': step + 1, ':now': now },
  };
  const position = scanPositionPut(deletionJobId(tenantId), progress.cursors, now);
  return firstConditionHeld(db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, position, ...(audit ? auditItems(audit) : [])] })));
}

/** The deletion's last write: the tenant's item and its schedule entry deleted with the `tenant.deleted` entry, conditioned on the step. */
export async function finishTenantDeletion(tenantId: string, deletionDueAt: string, step: number, audit: AuditRecord): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: keys.tenant(tenantId),
              ConditionExpression: 'deletionStep = :step',
              ExpressionAttributeValues: { ':step': step },
            },
          },
          { Delete: { TableName: tableName(), Key: keys.tenantDeletionDue(deletionDueAt, tenantId) } },
          { Delete: { TableName: tableName(), Key: keys.scanPosition(deletionJobId(tenantId)) } },
          ...auditItems(audit),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}

const EXPORT_STORED = ['status', 'step', 'files', 'counts', 'excluded', 'droppedAttributes', 'manifestSha256', 'finishedAt', 'failure'] as const;

const toExport = (item: Record<string, unknown>, cursors: ScanCursor[] | undefined): TenantExport => {
  // A job made before the position was kept apart has its cursors in its progress.
  const progress = JSON.parse(String(item.progress)) as Pick<TenantExport, 'files' | 'counts' | 'excluded' | 'droppedAttributes'> & { cursors?: ScanCursor[] };
  return {
    id: String(item.id),
    tenantId: String(item.tenantId),
    status: item.status as TenantExport['status'],
    requestedBy: String(item.requestedBy),
    requestedByTenantId: (item.requestedByTenantId as string | undefined) ?? null,
    createdAt: String(item.createdAt),
    finishedAt: (item.finishedAt as string | undefined) ?? null,
    step: Number(item.step),
    files: progress.files,
    counts: progress.counts,
    excluded: progress.excluded,
    droppedAttributes: progress.droppedAttributes,
    cursors: cursors ?? progress.cursors ?? [],
    manifestSha256: (item.manifestSha256 as string | undefined) ?? null,
    failure: (item.failure as string | undefined) ?? null,
  };
};

const exportProgress = (job: TenantExport) =>
  JSON.stringify({ files: job.files, counts: job.counts, excluded: job.excluded, droppedAttributes: job.droppedAttributes });

/** The lock's put: this export holds the tenant's export slot, conditioned on the slot being free, or held by `staleExportId`. */
function exportLockPut(job: TenantExport, staleExportId: string | undefined): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.tenantExportRunning(job.tenantId), type: TENANT_JOB_ITEMS.exportRunning, exportId: job.id, startedAt: job.createdAt },
      ...(staleExportId === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'attribute_not_exists(pk) OR exportId = :stale', ExpressionAttributeValues: { ':stale': staleExportId } }),
    },
  };
}

/** The export that holds the tenant's export slot, if any. */
export async function runningExportId(tenantId: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenantExportRunning(tenantId), ConsistentRead: true }));
  return typeof Item?.exportId === 'string' ? Item.exportId : undefined;
}

/**
 * A new export job with its request's entry, its Scan position and the tenant's export slot, in
 * one transaction: false when the slot is held (by another export than `staleExportId`, which
 * the caller found ended), and nothing is written. One export of a tenant runs at a time.
 */
export async function insertTenantExport(job: TenantExport, audit: AuditRecord, staleExportId?: string): Promise<boolean> {
  const put: TransactItem = {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.tenantExport(job.tenantId, job.id),
        type: TENANT_JOB_ITEMS.export,
        id: job.id,
        tenantId: job.tenantId,
        status: job.status,
        requestedBy: job.requestedBy,
        ...(job.requestedByTenantId === null ? {} : { requestedByTenantId: job.requestedByTenantId }),
        createdAt: job.createdAt,
        step: job.step,
        progress: exportProgress(job),
        ttl: epochSeconds(job.createdAt) + (TENANT_EXPORT_FILE_DAYS + 1) * 24 * 3600,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [exportLockPut(job, staleExportId), put, scanPositionPut(job.id, job.cursors, job.createdAt), ...auditItems(audit)],
      }),
    );
    return true;
  } catch (error) {
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}

/** An export job; with `position`, where its Scan stands too (the worker's read; a status read needs none). */
export async function findTenantExport(tenantId: string, exportId: string, options: { position?: boolean } = {}): Promise<TenantExport | undefined> {
  const [{ Item }, cursors] = await Promise.all([
    db().send(new GetCommand({ TableName: tableName(), Key: keys.tenantExport(tenantId, exportId), ConsistentRead: true })),
    options.position ? readScanPosition(exportId) : Promise.resolve(undefined),
  ]);
  return Item ? toExport(Item, cursors) : undefined;
}

/**
 * Record an export step: the job as it stands after it and its Scan's position, in one
 * transaction conditioned on the step it started from. False when another run recorded first.
 * A job that ended (succeeded or failed) frees the tenant's export slot, if it still holds it.
 */
export async function recordExportStep(job: TenantExport, fromStep: number): Promise<boolean> {
  const values: Record<string, unknown> = { ':status': job.status, ':step': fromStep, ':next': job.step, ':progress': exportProgress(job) };
  const sets = ['#status = :status', 'step = :next', 'progress = :progress'];
  for (const field of EXPORT_STORED) {
    if ((field === 'finishedAt' || field === 'manifestSha256' || field === 'failure') && job[field] !== null) {
      sets.push(`${field} = :${field}`);
      values[`:${field}`] = job[field];
    }
  }
  const update = {
    TableName: tableName(),
    Key: keys.tenantExport(job.tenantId, job.id),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'step = :step',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: values,
  };
  const recorded = await firstConditionHeld(
    db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, scanPositionPut(job.id, job.cursors, job.createdAt)] })),
  );
  if (recorded && job.status !== 'running') await releaseExportSlot(job);
  return recorded;
}

/** The tenant's export slot freed, if this export still holds it. */
async function releaseExportSlot(job: Pick<TenantExport, 'tenantId' | 'id'>): Promise<void> {
  await conditionally(
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.tenantExportRunning(job.tenantId),
        ConditionExpression: 'exportId = :id',
        ExpressionAttributeValues: { ':id': job.id },
      }),
    ),
  );
}

/** The ids of the tenant's users (every `USER#` item of its partition). */
export async function tenantUserIds(tenantId: string): Promise<string[]> {
  const { pk, skPrefix } = keys.usersOfTenant(tenantId);
  return (await queryAll(pk, { skPrefix, consistent: true })).filter((item) => item.type === USER_ITEMS.user).map((item) => String(item.id));
}
