import { GetCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../../audit/model';
import { TENANT_EXPORT_FILE_DAYS, type DeletionProgress, type ScanCursor, type TenantExport } from '../../tenant-jobs/model';
import type { Tenant } from '../../tenants/model';
import { db, tableName } from '../client';
import { conditionally, failedConditions } from '../conditions';
import { USER_ITEMS } from '../item-types';
import { epochSeconds } from '../items';
import { keys } from '../keys';
import { queryAll } from '../query';
import { auditItems } from './audit';
import { deleteAll } from './bulk';

/**
 * The tenant jobs' reads and writes (lib/tenant-jobs/engine): the table's Scan, the deletion
 * schedule, the deletion's progress on the tenant's item and the export jobs.
 */

/** The `type` attribute of the tenant jobs' items. */
export const TENANT_JOB_ITEMS = { deletionDue: 'TenantDeletionDue', export: 'TenantExport' } as const;

/**
 * Up to `pages` pages of one segment of a parallel Scan of the whole table, from `cursor`:
 * their items and where the segment goes on (`'done'` after its last page). Eventually
 * consistent (half the read units) unless `consistent`: what a deletion pass might miss by it,
 * the second count, which is consistent, finds.
 */
export async function scanSegment(segment: number, segments: number, cursor: ScanCursor, pages: number, consistent = false): Promise<{ items: Record<string, unknown>[]; cursor: ScanCursor }> {
  if (cursor === 'done') return { items: [], cursor };
  const items: Record<string, unknown>[] = [];
  let startKey = cursor ?? undefined;
  for (let page = 0; page < pages; page += 1) {
    const result = await db().send(new ScanCommand({ TableName: tableName(), Segment: segment, TotalSegments: segments, ExclusiveStartKey: startKey, ...(consistent ? { ConsistentRead: true } : {}) }));
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
export async function readDeletion(tenantId: string): Promise<{ tenant: Tenant & Record<string, unknown>; progress?: DeletionProgress; step: number; stepAt?: string } | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId), ConsistentRead: true }));
  if (!Item) return undefined;
  return {
    tenant: Item as Tenant & Record<string, unknown>,
    ...(typeof Item.deletionProgress === 'string' ? { progress: JSON.parse(Item.deletionProgress) as DeletionProgress } : {}),
    step: typeof Item.deletionStep === 'number' ? Item.deletionStep : 0,
    ...(typeof Item.deletionStepAt === 'string' ? { stepAt: Item.deletionStepAt } : {}),
  };
}

/**
 * Start a due deletion: DELETING, with its first progress, conditioned on the tenant being
 * still CLOSED with this due time, and due at `now`. False when it is not (a reopen won the
 * race, or another run started it): nothing is written.
 */
export function markTenantDeleting(tenantId: string, deletionDueAt: string, now: string, progress: DeletionProgress): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tenant(tenantId),
        UpdateExpression: 'SET #status = :deleting, deletionProgress = :progress, deletionStep = :zero, deletionStepAt = :now, deletionStartedAt = :now, updatedAt = :now',
        ConditionExpression: '#status = :closed AND deletionDueAt = :due AND deletionDueAt <= :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':deleting': 'DELETING', ':closed': 'CLOSED', ':due': deletionDueAt, ':now': now, ':progress': JSON.stringify(progress), ':zero': 0 },
      }),
    ),
  );
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
    ExpressionAttributeValues: { ':progress': JSON.stringify(progress), ':step': step, ':next': step + 1, ':now': now },
  };
  if (!audit) return conditionally(db().send(new UpdateCommand(update)));
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...auditItems(audit)] }));
    return true;
  } catch (error) {
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}

/** The deletion's last write: the tenant's item and its schedule entry deleted with the `tenant.deleted` entry, conditioned on the step. */
export async function finishTenantDeletion(tenantId: string, deletionDueAt: string, step: number, audit: AuditRecord): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: keys.tenant(tenantId), ConditionExpression: 'deletionStep = :step', ExpressionAttributeValues: { ':step': step } } },
          { Delete: { TableName: tableName(), Key: keys.tenantDeletionDue(deletionDueAt, tenantId) } },
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

const EXPORT_STORED = ['status', 'step', 'cursors', 'files', 'counts', 'excluded', 'droppedAttributes', 'manifestSha256', 'finishedAt'] as const;

const toExport = (item: Record<string, unknown>): TenantExport => ({
  id: String(item.id),
  tenantId: String(item.tenantId),
  status: item.status as TenantExport['status'],
  requestedBy: String(item.requestedBy),
  createdAt: String(item.createdAt),
  finishedAt: (item.finishedAt as string | undefined) ?? null,
  step: Number(item.step),
  ...(JSON.parse(String(item.progress)) as Pick<TenantExport, 'cursors' | 'files' | 'counts' | 'excluded' | 'droppedAttributes'>),
  manifestSha256: (item.manifestSha256 as string | undefined) ?? null,
});

const exportProgress = (job: TenantExport) => JSON.stringify({ cursors: job.cursors, files: job.files, counts: job.counts, excluded: job.excluded, droppedAttributes: job.droppedAttributes });

/** A new export job with the request's entry, in one transaction. */
export async function insertTenantExport(job: TenantExport, audit: AuditRecord): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.tenantExport(job.tenantId, job.id),
              type: TENANT_JOB_ITEMS.export,
              id: job.id,
              tenantId: job.tenantId,
              status: job.status,
              requestedBy: job.requestedBy,
              createdAt: job.createdAt,
              step: job.step,
              progress: exportProgress(job),
              ttl: epochSeconds(job.createdAt) + (TENANT_EXPORT_FILE_DAYS + 1) * 24 * 3600,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...auditItems(audit),
      ],
    }),
  );
}

export async function findTenantExport(tenantId: string, exportId: string): Promise<TenantExport | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenantExport(tenantId, exportId), ConsistentRead: true }));
  return Item ? toExport(Item) : undefined;
}

/** Record an export step: the job as it stands after it, conditioned on the step it started from. False when another run recorded first. */
export function recordExportStep(job: TenantExport, fromStep: number): Promise<boolean> {
  const values: Record<string, unknown> = { ':status': job.status, ':step': fromStep, ':next': job.step, ':progress': exportProgress(job) };
  const sets = ['#status = :status', 'step = :next', 'progress = :progress'];
  for (const field of EXPORT_STORED) {
    if ((field === 'finishedAt' || field === 'manifestSha256') && job[field] !== null) {
      sets.push(`${field} = :${field}`);
      values[`:${field}`] = job[field];
    }
  }
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tenantExport(job.tenantId, job.id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'step = :step',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      }),
    ),
  );
}


/** The ids of the tenant's users (every `USER#` item of its partition). */
export async function tenantUserIds(tenantId: string): Promise<string[]> {
  const { pk, skPrefix } = keys.usersOfTenant(tenantId);
  return (await queryAll(pk, { skPrefix, consistent: true })).filter((item) => item.type === USER_ITEMS.user).map((item) => String(item.id));
}
