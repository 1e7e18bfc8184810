import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { writeWithEntry } from '../audit/repository';
import { db, tableName } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { PURCHASING_ITEMS, PURCHASE_ORDER_ITEMS } from '../db/item-types';
import { keys } from '../db/keys';
import { QUANTITY_PLACES } from '../domain/decimal';
import type { ReorderSettings } from './model';

/** Reorder settings, and the compact partitions suggestions read (what is on order per warehouse). */

const settingsOf = (item: Record<string, unknown>): ReorderSettings => ({
  productId: String(item.productId),
  warehouseId: typeof item.warehouseId === 'string' ? item.warehouseId : null,
  reorderPoint: item.reorderPoint === undefined ? null : scaledFrom(item.reorderPoint, QUANTITY_PLACES),
  targetDays: Number(item.targetDays),
  safetyDays: Number(item.safetyDays),
  updatedAt: String(item.updatedAt),
});

/** Write a product's settings for a warehouse (or all), conditioned on the product existing, with the audit entry. False when the product is not there. */
export async function putReorderSettings(tenantId: string, settings: ReorderSettings, audit: AuditRecord): Promise<boolean> {
  const { reorderPoint, warehouseId, ...fields } = settings;
  return writeWithEntry(
    [
      {
        ConditionCheck: { TableName: tableName(), Key: keys.product(tenantId, settings.productId), ConditionExpression: 'attribute_exists(pk)' },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.reorderSettings(tenantId, settings.productId, warehouseId),
            type: PURCHASING_ITEMS.reorder,
            ...fields,
            ...(warehouseId === null ? {} : { warehouseId }),
            ...(reorderPoint === null ? {} : { reorderPoint: storedDecimal(reorderPoint, QUANTITY_PLACES) }),
          },
        },
      },
    ],
    audit,
  );
}

async function queryAllOf(pk: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every product's reorder settings (one partition: only the products someone set). */
export async function readAllReorderSettings(tenantId: string): Promise<ReorderSettings[]> {
  return (await queryAllOf(keys.reorderSettingsOf(tenantId).pk)).filter((item) => item.type === PURCHASING_ITEMS.reorder).map(settingsOf);
}

/** What is on order in a warehouse, by product (thousandths; the products on no open order are absent or 0). */
export async function readWarehouseOnOrder(tenantId: string, warehouseId: string): Promise<Map<string, bigint>> {
  const items = await queryAllOf(keys.onOrdersOf(tenantId, warehouseId).pk);
  return new Map(
    items.filter((item) => item.type === PURCHASE_ORDER_ITEMS.onOrder).map((item) => [String(item.productId), scaledFrom(item.quantity, QUANTITY_PLACES)]),
  );
}
