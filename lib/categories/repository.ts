import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { auditItems } from '../audit/repository';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { CATEGORY_ITEMS } from '../db/item-types';
import { keys } from '../db/keys';
import { normalizeText } from '../db/name-order';
import { queryAll, queryPage } from '../db/query';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { Conflict, NotFound } from '../errors';
import { completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';
import type { Category } from './model';

/**
 * A category's items: the category (`CATEGORY#<id>`: its name, version and product count) and
 * its name sentinel (`CATEGORY_NAME#<normalized name>`), which keeps the name unique in the
 * tenant whatever its case and accents and, in key order, is the list by name. The product
 * count is kept by the products' own transactions (countChange), so deleting a category in use
 * fails on its condition, however the writes interleave.
 */

const nameKey = (name: string): string => normalizeText(name);

const categoryOf = (item: Record<string, unknown>): Category => ({
  id: String(item.id),
  name: String(item.name),
  productCount: Number(item.productCount ?? 0),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
  version: Number(item.version),
});

/** A category whose name another of the tenant has: named in the 409. */
async function nameTaken(tenantId: string, name: string): Promise<Conflict> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.categoryName(tenantId, nameKey(name)), ConsistentRead: true }));
  return new Conflict(
    Item ? `The category name '${name}' is already used by category ${String(Item.categoryId)}` : `The category name '${name}' is already used in this tenant`,
  );
}

/** A category with its name sentinel (409 when the name is taken) and its audit entry, in one transaction. */
export async function insertCategory(tenantId: string, category: Category, audit: AuditRecord, key?: KeyCompletion): Promise<void> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.category(tenantId, category.id), type: CATEGORY_ITEMS.category, ...category },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.categoryName(tenantId, nameKey(category.name)), type: CATEGORY_ITEMS.name, categoryId: category.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...completionItems(key),
    ...auditItems(audit),
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    keyTakenOver(error, 2);
    if (cancellationCodes(error)[1] === 'ConditionalCheckFailed') throw await nameTaken(tenantId, category.name);
    throw error;
  }
}

/** The id of the tenant's category of that name (its sentinel, one consistent read), or none. */
export async function findCategoryIdByName(tenantId: string, name: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.categoryName(tenantId, nameKey(name)), ConsistentRead: true }));
  return typeof Item?.categoryId === 'string' ? Item.categoryId : undefined;
}

/** One category of the tenant (consistent), or none. */
export async function findCategory(tenantId: string, categoryId: string): Promise<Category | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.category(tenantId, categoryId), ConsistentRead: true }));
  return Item ? categoryOf(Item) : undefined;
}

/** Every category's name, by id: the products export names each product's (a tenant has a few hundred categories at most). */
export async function readCategoryNames(tenantId: string): Promise<Map<string, string>> {
  const { pk, skPrefix } = keys.categoriesOfTenant(tenantId);
  return new Map((await queryAll(pk, { skPrefix })).map((item) => [String(item.id), String(item.name)]));
}

/** Categories by id, in one consistent BatchGetItem per 100. */
export async function readCategoriesById(tenantId: string, ids: readonly string[]): Promise<Map<string, Category>> {
  const items = await getMany(ids.map((id) => keys.category(tenantId, id)));
  return new Map(items.flatMap((item) => (item ? [[String(item.id), categoryOf(item)] as const] : [])));
}

/** A page of the tenant's categories by name: one Query of the name sentinels, then their categories in one BatchGetItem. */
export async function listCategoryPage(tenantId: string, page: { limit: number; afterSk?: string }): Promise<{ items: Category[]; lastSk?: string }> {
  const { pk, skPrefix } = keys.categoryNamesOfTenant(tenantId);
  const { items, more } = await queryPage(pk, { ...page, skPrefix, consistent: true });
  const found = await readCategoriesById(
    tenantId,
    items.map((item) => String(item.categoryId)),
  );
  return {
    items: items.flatMap((item) => {
      const category = found.get(String(item.categoryId));
      return category ? [category] : [];
    }),
    ...(more ? { lastSk: items.at(-1)?.sk as string } : {}),
  };
}

/**
 * Rename a category: read it, let `change` compute the new one (it throws a 412 for a stale
 * If-Match), and write in one transaction conditioned on the version read: the category, its
 * name sentinel (moved when the normalized name changed: 409 when the new one is taken) and
 * the audit entry. A concurrent change makes it read again.
 */
export async function modifyCategory(
  tenantId: string,
  categoryId: string,
  change: (current: Category) => Category,
  audit: (before: Category, after: Category) => AuditRecord,
): Promise<Category> {
  return withOptimisticRetries<Category>(async () => {
    const before = await findCategory(tenantId, categoryId);
    if (!before) throw new NotFound('No such category');
    const after = change(before);
    const moved = nameKey(after.name) !== nameKey(before.name);
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.category(tenantId, categoryId),
          UpdateExpression: 'SET #name = :name, updatedAt = :updatedAt, #version = :next',
          ConditionExpression: 'attribute_exists(pk) AND #version = :version',
          ExpressionAttributeNames: { '#name': 'name', '#version': 'version' },
          ExpressionAttributeValues: { ':name': after.name, ':updatedAt': after.updatedAt, ':next': after.version, ':version': before.version },
        },
      },
      ...(moved
        ? [
            {
              Put: {
                TableName: tableName(),
                Item: { ...keys.categoryName(tenantId, nameKey(after.name)), type: CATEGORY_ITEMS.name, categoryId },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Delete: { TableName: tableName(), Key: keys.categoryName(tenantId, nameKey(before.name)) } },
          ]
        : []),
      ...auditItems(audit(before, after)),
    ];
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: { ...after, productCount: before.productCount } };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return { retry: true };
      if (moved && codes[1] === 'ConditionalCheckFailed') throw await nameTaken(tenantId, after.name);
      throw error;
    }
  });
}

/**
 * Delete a category no product is in, with its name sentinel and the audit entry, in one
 * transaction conditioned on the count read being zero (a product put in it meanwhile makes
 * it fail and read again): 409 while products are in it, 404 for none.
 */
export async function removeCategory(tenantId: string, categoryId: string, audit: (category: Category) => AuditRecord): Promise<void> {
  await withOptimisticRetries<undefined>(async () => {
    const category = await findCategory(tenantId, categoryId);
    if (!category) throw new NotFound('No such category');
    if (category.productCount > 0) {
      throw new Conflict(
        `The category has ${category.productCount} product${category.productCount === 1 ? '' : 's'}: move them to another category (or none) before deleting it`,
      );
    }
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: tableName(),
          Key: keys.category(tenantId, categoryId),
          ConditionExpression: 'attribute_exists(pk) AND #version = :version AND (attribute_not_exists(productCount) OR productCount = :zero)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': category.version, ':zero': 0 },
        },
      },
      { Delete: { TableName: tableName(), Key: keys.categoryName(tenantId, nameKey(category.name)) } },
      ...auditItems(audit(category)),
    ];
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: undefined };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/**
 * The write a product's transaction makes on its category's count: `delta` products more (or
 * fewer). A product put in a category requires the category to exist (its condition fails
 * otherwise: the caller answers 404); one leaving it does not (it cannot be gone: a category
 * with products cannot be deleted).
 */
export function categoryCountChange(tenantId: string, categoryId: string, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.category(tenantId, categoryId),
      UpdateExpression: 'ADD productCount :delta',
      ...(delta > 0 ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}
