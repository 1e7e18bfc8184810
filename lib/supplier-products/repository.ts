import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { auditItems } from '../audit/repository';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { SUPPLIER_PRODUCT_ITEMS } from '../db/item-types';
import { keys, type Key } from '../db/keys';
import { queryPage } from '../db/query';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { Conflict, NotFound } from '../errors';
import { completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';
import { supplierCodeKey, type SupplierProduct } from './model';

/**
 * What a supplier sells (./model). Every write is one transaction: the link in both lists
 * (the supplier's and the product's), each side's count, the supplier code's sentinel, the
 * product's preferred-supplier marker (and the link it takes the mark from) and the audit entry.
 */

const linkKeys = (tenantId: string, link: Pick<SupplierProduct, 'supplierId' | 'productId'>): [Key, Key] => [
  keys.supplierProduct(tenantId, link.supplierId, link.productId),
  keys.productSupplier(tenantId, link.productId, link.supplierId),
];

function linkAttributes(link: SupplierProduct): Record<string, unknown> {
  return {
    type: SUPPLIER_PRODUCT_ITEMS.link,
    supplierId: link.supplierId,
    productId: link.productId,
    ...(link.supplierCode === null ? {} : { supplierCode: link.supplierCode }),
    ...(link.unit === null ? {} : { unit: link.unit }),
    unitsPerPack: storedDecimal(link.unitsPerPack, QUANTITY_PLACES),
    ...(link.lastCost === null ? {} : { lastCost: storedDecimal(link.lastCost, UNIT_COST_PLACES) }),
    leadTimeDays: link.leadTimeDays,
    ...(link.minimumOrder === null ? {} : { minimumOrder: storedDecimal(link.minimumOrder, QUANTITY_PLACES) }),
    preferred: link.preferred,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
    version: link.version,
  };
}

export const toSupplierProduct = (item: Record<string, unknown>): SupplierProduct => ({
  supplierId: String(item.supplierId),
  productId: String(item.productId),
  supplierCode: typeof item.supplierCode === 'string' ? item.supplierCode : null,
  unit: typeof item.unit === 'string' ? item.unit : null,
  unitsPerPack: scaledFrom(item.unitsPerPack, QUANTITY_PLACES),
  lastCost: item.lastCost === undefined ? null : scaledFrom(item.lastCost, UNIT_COST_PLACES),
  leadTimeDays: Number(item.leadTimeDays),
  minimumOrder: item.minimumOrder === undefined ? null : scaledFrom(item.minimumOrder, QUANTITY_PLACES),
  preferred: item.preferred === true,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
  version: Number(item.version),
});

/** The link as stored in the supplier's list, or undefined. */
export async function findSupplierProduct(tenantId: string, supplierId: string, productId: string): Promise<SupplierProduct | undefined> {
  const [item] = await getMany([keys.supplierProduct(tenantId, supplierId, productId)]);
  return item ? toSupplierProduct(item) : undefined;
}

/** The product that has this supplier code, if any. */
export async function productIdOfSupplierCode(tenantId: string, supplierId: string, code: string): Promise<string | undefined> {
  const [item] = await getMany([keys.supplierCode(tenantId, supplierId, supplierCodeKey(code))]);
  return item ? String(item.productId) : undefined;
}

/** Links by key, in order (undefined for none). */
export async function readSupplierProducts(
  tenantId: string,
  pairs: readonly { supplierId: string; productId: string }[],
): Promise<(SupplierProduct | undefined)[]> {
  const items = await getMany(pairs.map((pair) => keys.supplierProduct(tenantId, pair.supplierId, pair.productId)));
  return items.map((item) => (item ? toSupplierProduct(item) : undefined));
}

/** A page of one side's list: a supplier's products (by product id) or a product's suppliers (by supplier id). */
export async function readLinkPage(
  tenantId: string,
  of: { supplierId: string } | { productId: string },
  page: { limit: number; afterSk?: string },
): Promise<{ items: SupplierProduct[]; lastSk?: string }> {
  const pk = 'supplierId' in of ? keys.supplierProductsOf(tenantId, of.supplierId).pk : keys.productSuppliersOf(tenantId, of.productId).pk;
  const { items, more } = await queryPage(pk, { ...page, consistent: true });
  return { items: items.map(toSupplierProduct), ...(more ? { lastSk: String(items.at(-1)?.sk) } : {}) };
}

/** Every link of a supplier (the suggestions' and the receipts' reads: a supplier sells at most some thousands). */
export async function readAllSupplierProducts(tenantId: string, supplierId: string): Promise<SupplierProduct[]> {
  const all: SupplierProduct[] = [];
  let afterSk: string | undefined;
  do {
    const page = await readLinkPage(tenantId, { supplierId }, { limit: 1000, ...(afterSk === undefined ? {} : { afterSk }) });
    all.push(...page.items);
    afterSk = page.lastSk;
  } while (afterSk !== undefined);
  return all;
}

const countChange = (tenantId: string, side: 'supplier' | 'product', id: string, delta: 1 | -1): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.supplierLinkCount(tenantId, side, id),
    UpdateExpression: 'SET #type = :type ADD #count :delta',
    ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
    ExpressionAttributeValues: { ':type': SUPPLIER_PRODUCT_ITEMS.count, ':delta': delta },
  },
});

/** How many links a supplier or a product has (0 for none): what its deletion checks. */
export async function linkCount(tenantId: string, side: 'supplier' | 'product', id: string): Promise<number> {
  const [item] = await getMany([keys.supplierLinkCount(tenantId, side, id)]);
  return Number(item?.count ?? 0);
}

/** The condition a supplier's or a product's deletion adds to its transaction: no link (its count, read as `count`, still 0). */
export const noLinksCheck = (tenantId: string, side: 'supplier' | 'product', id: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.supplierLinkCount(tenantId, side, id),
    ConditionExpression: 'attribute_not_exists(pk) OR #count = :zero',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':zero': 0 },
  },
});

/**
 * The writes that make `link` the product's preferred supplier: the marker (conditioned on
 * naming the supplier read as preferred, or none), and that supplier's link no longer preferred
 * in both lists (its version moves: its terms as shown changed).
 */
function preferWrites(tenantId: string, link: SupplierProduct, previous: string | undefined): TransactItem[] {
  const marker: TransactItem = {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.preferredSupplier(tenantId, link.productId),
        type: SUPPLIER_PRODUCT_ITEMS.preferred,
        productId: link.productId,
        supplierId: link.supplierId,
      },
      ConditionExpression: previous === undefined ? 'attribute_not_exists(pk)' : 'supplierId = :previous',
      ...(previous === undefined ? {} : { ExpressionAttributeValues: { ':previous': previous } }),
    },
  };
  if (previous === undefined || previous === link.supplierId) return [marker];
  const demote = (key: Key): TransactItem => ({
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET preferred = :false, #version = #version + :one, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':false': false, ':one': 1, ':now': link.updatedAt },
    },
  });
  return [marker, ...linkKeys(tenantId, { supplierId: previous, productId: link.productId }).map(demote)];
}

async function preferredOf(tenantId: string, productId: string): Promise<string | undefined> {
  const [item] = await getMany([keys.preferredSupplier(tenantId, productId)]);
  return item ? String(item.supplierId) : undefined;
}

const codePut = (tenantId: string, link: SupplierProduct, code: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.supplierCode(tenantId, link.supplierId, supplierCodeKey(code)), type: SUPPLIER_PRODUCT_ITEMS.code, productId: link.productId, code },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

async function codeTaken(tenantId: string, supplierId: string, code: string): Promise<Conflict> {
  const productId = await productIdOfSupplierCode(tenantId, supplierId, code);
  return new Conflict(`The supplier code '${code}' is already the supplier's code for ${productId ? `product ${productId}` : 'another product'}`);
}

/**
 * A new link: both copies (the supplier's conditioned on not existing: 409), the supplier and
 * the product checked to exist (404), both counts, the code's sentinel (409 when the supplier
 * uses it for another product) and, for a preferred one, the marker, with the audit entry.
 */
export async function insertSupplierProduct(tenantId: string, link: SupplierProduct, audit: AuditRecord, key?: KeyCompletion): Promise<void> {
  await withOptimisticRetries<undefined>(async () => {
    const previous = link.preferred ? await preferredOf(tenantId, link.productId) : undefined;
    const [supplierKey, productKey] = linkKeys(tenantId, link);
    const exists = (itemKey: Key): TransactItem => ({ ConditionCheck: { TableName: tableName(), Key: itemKey, ConditionExpression: 'attribute_exists(pk)' } });
    const items: TransactItem[] = [
      { Put: { TableName: tableName(), Item: { ...supplierKey, ...linkAttributes(link) }, ConditionExpression: 'attribute_not_exists(pk)' } },
      exists(keys.supplier(tenantId, link.supplierId)),
      exists(keys.product(tenantId, link.productId)),
      { Put: { TableName: tableName(), Item: { ...productKey, ...linkAttributes(link) } } },
      countChange(tenantId, 'supplier', link.supplierId, 1),
      countChange(tenantId, 'product', link.productId, 1),
    ];
    const codeAt = link.supplierCode === null ? -1 : items.push(codePut(tenantId, link, link.supplierCode)) - 1;
    if (link.preferred) items.push(...preferWrites(tenantId, link, previous));
    const keyAt = items.length;
    items.push(...completionItems(key), ...auditItems(audit));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: undefined };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (key) keyTakenOver(error, keyAt);
      if (codes[1] === 'ConditionalCheckFailed') throw new NotFound('No such supplier');
      if (codes[2] === 'ConditionalCheckFailed') throw new NotFound('No such product');
      if (codes[0] === 'ConditionalCheckFailed') throw new Conflict('The supplier already sells this product: change its terms with PATCH');
      if (link.supplierCode !== null && codes[codeAt] === 'ConditionalCheckFailed') throw await codeTaken(tenantId, link.supplierId, link.supplierCode);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/**
 * Change a link: read it, let `change` compute the new one (it throws a 412 for a stale
 * If-Match), and write both copies conditioned on the version read, the code's sentinel moved
 * (409 when taken), the preferred marker taken or given up, with the audit entry.
 */
export async function modifySupplierProduct(
  tenantId: string,
  at: { supplierId: string; productId: string },
  change: (current: SupplierProduct) => SupplierProduct,
  audit: (before: SupplierProduct, after: SupplierProduct) => AuditRecord,
): Promise<SupplierProduct> {
  return withOptimisticRetries<SupplierProduct>(async () => {
    const before = await findSupplierProduct(tenantId, at.supplierId, at.productId);
    if (!before) throw new NotFound('The supplier does not sell this product');
    const after = change(before);
    const previous = after.preferred && !before.preferred ? await preferredOf(tenantId, after.productId) : undefined;
    const [supplierKey, productKey] = linkKeys(tenantId, after);
    const items: TransactItem[] = [
      {
        Put: {
          TableName: tableName(),
          Item: { ...supplierKey, ...linkAttributes(after) },
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': before.version },
        },
      },
      { Put: { TableName: tableName(), Item: { ...productKey, ...linkAttributes(after) } } },
    ];
    const oldCode = before.supplierCode === null ? undefined : supplierCodeKey(before.supplierCode);
    const newCode = after.supplierCode === null ? undefined : supplierCodeKey(after.supplierCode);
    let codeAt = -1;
    if (before.supplierCode !== after.supplierCode) {
      if (oldCode !== undefined && oldCode !== newCode)
        items.push({ Delete: { TableName: tableName(), Key: keys.supplierCode(tenantId, after.supplierId, oldCode) } });
      if (after.supplierCode !== null) {
        const put = codePut(tenantId, after, after.supplierCode);
        // The same code in another case is the link's own sentinel, rewritten rather than claimed.
        if (oldCode === newCode && put.Put) delete put.Put.ConditionExpression;
        codeAt = items.push(put) - 1;
      }
    }
    if (after.preferred && !before.preferred) items.push(...preferWrites(tenantId, after, previous));
    if (!after.preferred && before.preferred)
      items.push({
        Delete: {
          TableName: tableName(),
          Key: keys.preferredSupplier(tenantId, after.productId),
          ConditionExpression: 'attribute_not_exists(pk) OR supplierId = :self',
          ExpressionAttributeValues: { ':self': after.supplierId },
        },
      });
    items.push(...auditItems(audit(before, after)));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: after };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return { retry: true };
      if (after.supplierCode !== null && codeAt >= 0 && codes[codeAt] === 'ConditionalCheckFailed')
        throw await codeTaken(tenantId, after.supplierId, after.supplierCode);
      if (codes.includes('ConditionalCheckFailed')) return { retry: true };
      throw error;
    }
  });
}

/** Remove a link (conditioned on the version read, `check` throwing a 412 for a stale If-Match): both copies, both counts, its code and its preferred marker. */
export async function removeSupplierProduct(
  tenantId: string,
  at: { supplierId: string; productId: string },
  check: (current: SupplierProduct) => void,
  audit: (link: SupplierProduct) => AuditRecord,
): Promise<void> {
  await withOptimisticRetries<undefined>(async () => {
    const link = await findSupplierProduct(tenantId, at.supplierId, at.productId);
    if (!link) throw new NotFound('The supplier does not sell this product');
    check(link);
    const [supplierKey, productKey] = linkKeys(tenantId, link);
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: tableName(),
          Key: supplierKey,
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': link.version },
        },
      },
      { Delete: { TableName: tableName(), Key: productKey } },
      countChange(tenantId, 'supplier', link.supplierId, -1),
      countChange(tenantId, 'product', link.productId, -1),
      ...(link.supplierCode === null
        ? []
        : [{ Delete: { TableName: tableName(), Key: keys.supplierCode(tenantId, link.supplierId, supplierCodeKey(link.supplierCode)) } }]),
      ...(link.preferred
        ? [
            {
              Delete: {
                TableName: tableName(),
                Key: keys.preferredSupplier(tenantId, link.productId),
                ConditionExpression: 'attribute_not_exists(pk) OR supplierId = :self',
                ExpressionAttributeValues: { ':self': link.supplierId },
              },
            },
          ]
        : []),
      ...auditItems(audit(link)),
    ];
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: undefined };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/**
 * The writes of a receipt from a supplier to its links' `lastCost` (lib/purchasing): each
 * link's copies get the cost of one of the product's units in the receipt, and a new version.
 * A product the supplier has no link for is left alone.
 */
export function lastCostWrites(tenantId: string, link: SupplierProduct, lastCost: bigint, nowIso: string): TransactItem[] {
  return linkKeys(tenantId, link).map((key) => ({
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET lastCost = :cost, #version = #version + :one, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':cost': storedDecimal(lastCost, UNIT_COST_PLACES), ':one': 1, ':now': nowIso },
    },
  }));
}
