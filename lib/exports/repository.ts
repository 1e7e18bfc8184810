import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { EXPORT_RETENTION_DAYS, exportRole, type ExportJob } from './model';
import { QUANTITY_PLACES } from '../domain/decimal';
import type { Product } from '../inventory/model';
import type { Supplier } from '../suppliers/model';
import { getMany } from '../db/batch';
import { db, tableName } from '../db/client';
import { conditionally } from '../db/conditions';
import { scaledFrom } from '../db/decimals';
import { epochSeconds, fieldsOf, pick } from '../db/items';
import { keys } from '../db/keys';
import { pendingJobPut } from '../background/pending-jobs-repository';
import { writeWithEntry } from '../audit/repository';
import { toSupplier } from '../suppliers/repository';
import { toProduct } from '../inventory/product-repository';

/**
 * CSV export jobs (lib/exports): one item per job in its tenant's partition, expiring
 * EXPORT_RETENTION_DAYS after it was made (its file, EXPORT_FILE_DAYS: the bucket's rule). The
 * worker moves it on with conditional writes, so a run that lost its claim (the queue delivered
 * the message again) cannot mark it done twice. And the reads an export makes that no list
 * route makes: the suppliers by name from a position (not an offset), and products' stock.
 */

/** The item's `type` (beside IMPORT_ITEMS in lib/db/item-types.ts once that list takes it). */
const EXPORT_ITEM_TYPE = 'ExportJob';

const FIELDS = fieldsOf<ExportJob>()([
  'id',
  'tenantId',
  'kind',
  'status',
  'from',
  'to',
  'rows',
  'failure',
  'createdBy',
  'createdAt',
  'startedAt',
  'finishedAt',
]);

const keyOf = (job: Pick<ExportJob, 'tenantId' | 'id'>) => keys.exportJob(job.tenantId, job.id);

/** A new job, its pending-job marker (lib/background) and its audit entry, in one transaction. */
export async function insertExportJob(job: ExportJob, audit: AuditRecord): Promise<void> {
  const item = { ...keyOf(job), type: EXPORT_ITEM_TYPE, ...job, ttl: epochSeconds(job.createdAt) + EXPORT_RETENTION_DAYS * 24 * 3600 };
  const marker = pendingJobPut({
    tenantId: job.tenantId,
    jobId: job.id,
    kind: 'export',
    userId: job.createdBy.id,
    role: exportRole(job.kind),
    createdAt: job.createdAt,
  });
  await writeWithEntry([{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }, marker], audit);
}

export async function findExportJob(tenantId: string, exportId: string): Promise<ExportJob | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.exportJob(tenantId, exportId), ConsistentRead: true }));
  return Item ? pick<ExportJob>(Item, FIELDS) : undefined;
}

/** The worker takes the job: `running` from `queued`, or again from `running` (a run cut short starts over). False when it is done or failed. */
export function startExportJob(job: Pick<ExportJob, 'tenantId' | 'id'>, startedAt: string): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(job),
        UpdateExpression: 'SET #status = :running, startedAt = :at, #rows = :zero',
        ConditionExpression: '#status IN (:queued, :running)',
        ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows' },
        ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':at': startedAt, ':zero': 0 },
      }),
    ),
  );
}

/** Rows written so far, while it runs (GET shows the progress). */
export function recordExportRows(job: Pick<ExportJob, 'tenantId' | 'id'>, rows: number): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(job),
        UpdateExpression: 'SET #rows = :rows',
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows' },
        ExpressionAttributeValues: { ':rows': rows, ':running': 'running' },
      }),
    ),
  );
}

/** Its file is written: `done` with its row count. False when it is no longer running. */
export function finishExportJob(job: Pick<ExportJob, 'tenantId' | 'id'>, rows: number, finishedAt: string): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(job),
        UpdateExpression: 'SET #status = :done, #rows = :rows, finishedAt = :at',
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows' },
        ExpressionAttributeValues: { ':done': 'done', ':rows': rows, ':at': finishedAt, ':running': 'running' },
      }),
    ),
  );
}

/** The job failed: `failure` says why. False when it had finished already. */
export function failExportJob(job: Pick<ExportJob, 'tenantId' | 'id'>, failure: string, rows: number, finishedAt: string): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(job),
        UpdateExpression: 'SET #status = :failed, failure = :failure, #rows = :rows, finishedAt = :at',
        ConditionExpression: '#status IN (:queued, :running)',
        ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows' },
        ExpressionAttributeValues: { ':failed': 'failed', ':failure': failure, ':rows': rows, ':at': finishedAt, ':queued': 'queued', ':running': 'running' },
      }),
    ),
  );
}

/**
 * A page of the tenant's suppliers by name, after the index entry `afterSk`: one Query of the
 * index (ids only), then their full items (one consistent BatchGetItem per 100). An export walks
 * the index by position, where the list route pages by offset through the blocks
 * (./supplier-blocks): a supplier written during the export cannot shift the rows after it, and
 * each page costs the same however deep it is.
 */
export async function readSupplierRun(tenantId: string, page: { limit: number; afterSk?: string }): Promise<{ suppliers: Supplier[]; lastSk?: string }> {
  const { pk } = keys.supplierIndex(tenantId);
  const { Items = [], LastEvaluatedKey } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ExpressionAttributeNames: { '#id': 'id', '#sk': 'sk' },
      ProjectionExpression: '#sk, #id',
      ConsistentRead: true,
      Limit: page.limit,
      ...(page.afterSk === undefined ? {} : { ExclusiveStartKey: { pk, sk: page.afterSk } }),
    }),
  );
  const items = await getMany(Items.map((entry) => keys.supplier(tenantId, String(entry.id))));
  return { suppliers: items.flatMap((item) => (item ? [toSupplier(item)] : [])), ...(LastEvaluatedKey ? { lastSk: String(LastEvaluatedKey.sk) } : {}) };
}

/** Products by id (consistent BatchGetItem, 100 keys a call); a missing one is left out. */
export async function readProductsById(tenantId: string, productIds: readonly string[]): Promise<Map<string, Product>> {
  const items = await getMany(productIds.map((id) => keys.product(tenantId, id)));
  return new Map(items.flatMap((item) => (item ? [[String(item.id), toProduct(item)] as const] : [])));
}

/**
 * The quantity on hand (thousandths) of each product in each warehouse, keyed
 * `<productId>#<warehouseId>`; a pair without a balance item has none (0). One consistent
 * BatchGetItem per 100 pairs.
 */
export async function readStockQuantities(tenantId: string, productIds: readonly string[], warehouseIds: readonly string[]): Promise<Map<string, bigint>> {
  const pairs = productIds.flatMap((productId) => warehouseIds.map((warehouseId) => ({ productId, warehouseId })));
  const items = await getMany(pairs.map((pair) => keys.stock(tenantId, pair.productId, pair.warehouseId)));
  const quantities = new Map<string, bigint>();
  pairs.forEach((pair, index) => {
    const item = items[index];
    if (item) quantities.set(`${pair.productId}#${pair.warehouseId}`, scaledFrom(item.quantity, QUANTITY_PLACES));
  });
  return quantities;
}
