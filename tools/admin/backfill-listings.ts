import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/db/client';
import { COMPANY_ITEMS, INVENTORY_ITEMS, TENANT_ITEMS, USER_ITEMS } from '../../lib/db/item-types';
import { gsi1, keys } from '../../lib/db/keys';
import { sortName } from '../../lib/db/name-order';
import { registerCoverageTenant } from '../../lib/inventory/coverage-repository';
import { readSupplierBlocks, rebuildSupplierBlocks } from '../../lib/suppliers/blocks-repository';
import { listingOf, productSearchSource, statusEntryItem } from '../../lib/inventory/product-repository';
import { conditionally, isConditionFailure } from '../../lib/db/conditions';
import { listAllCompanies, type Company } from '../../lib/companies/repository';
import { readBalances } from '../../lib/integrity/repository';
import { warehouseTotals } from '../../lib/integrity/checks';
import { storedDecimal } from '../../lib/db/decimals';
import { VALUE_PLACES } from '../../lib/domain/decimal';
import { readSearchLog } from '../../lib/search/repository';
import { supplierSearchSource } from '../../lib/suppliers/repository';
import { rebuildSearchList, type SearchSource } from '../../lib/search/engine';
import { mapConcurrently } from '../../lib/domain/concurrency';

/**
 * The one-off backfill of the list entries that cursor pages read (`npm run migrate`): items
 * written before it are listed once this ran. Idempotent: it writes each entry as the
 * create would have, so a second run changes nothing.
 *
 * - a warehouse gets its entry in the list by name; one from before warehouses had a company
 *   gets the tenant's oldest company and its status (none for a tenant without companies), and one from
 *   before its stock was also valued at last cost gets that total from its balances (written
 *   only while its totals are still those read, so a movement meanwhile leaves it for the next run);
 * - a company gets its entry in the list by creation;
 * - a tenant on the old single gsi1 partition (`TENANTS`) moves to its name's shard;
 * - a product's SKU sentinel without the product's view gets it, and a product without its
 *   entry in the list of its status (ACTIVE for every product from before statuses) gets it;
 * - a user gets its entry in the tenant's list by name;
 * - a tenant with products is registered for the coverage job, which indexes its products
 *   at its next run (until then its dashboard is read in full, as before);
 * - a tenant with suppliers and no index blocks gets them (until then its deep supplier
 *   pages read the index from the start, as before). Run it when no supplier is being
 *   written: a write during the rebuild leaves a count off (deep pages then read the index
 *   from the start, correct but slow) until the next run;
 * - a tenant with at least SEARCH_BUILD_FROM suppliers (or products) and no search chunks for
 *   them gets them (lib/search/engine), so that no search has to build them from every
 *   item: at 100,000 suppliers that takes about 30 s, longer than a function may run.
 *   A smaller list is built by its first search in well under a second.
 *
 * It Scans the table: an operator's command, so it lives with the admin tools, outside lib/
 * and functions/, whose code no function may Scan with (test/infra/constructs.test.ts checks
 * that every DynamoDB command they import is granted, and Scan is granted to none).
 */
export interface BackfillCounts {
  warehouses: number;
  companies: number;
  tenants: number;
  productSentinels: number;
  productStatusEntries: number;
  warehouseCompanies: number;
  warehouseValues: number;
  coverageTenants: number;
  supplierBlocks: number;
  searchLists: number;
  users: number;
}

const tenantOf = (pk: unknown): string => String(pk).replace(/^TENANT#/, '');

/** The size from which the migration builds a list's search chunks (a first search builds a smaller one in well under a second). */
export const SEARCH_BUILD_FROM = 1_000;
/** Lists built at once. */
const BUILD_CONCURRENCY = 8;

const ignoreConditionFailure = (error: unknown): void => {
  if (!isConditionFailure(error)) throw error;
};

/**
 * A warehouse's stock valued at each balance's last cost (its average for a balance from
 * before last costs), written while its totals are still those read: true when written.
 */
async function valueAtLastCost(tenantId: string, warehouseId: string, item: Record<string, unknown>): Promise<boolean> {
  const balances = (await readBalances(tenantId)).filter((balance) => balance.warehouseId === warehouseId);
  const total = warehouseTotals(balances).get(warehouseId)?.totalReplacementValue ?? 0n;
  const names = { '#items': 'totalItems', '#value': 'totalValue' };
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: String(item.pk), sk: String(item.sk) },
        UpdateExpression: 'SET totalReplacementValue = :replacement',
        // Still the totals read: no movement came between (an absent one was never written).
        ConditionExpression: `${item.totalItems === undefined ? 'attribute_not_exists(#items)' : '#items = :items'} AND ${item.totalValue === undefined ? 'attribute_not_exists(#value)' : '#value = :value'}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':replacement': storedDecimal(total, VALUE_PLACES),
          ...(item.totalItems === undefined ? {} : { ':items': item.totalItems }),
          ...(item.totalValue === undefined ? {} : { ':value': item.totalValue }),
        },
      }),
    ),
  );
}

export async function backfillListings(): Promise<BackfillCounts> {
  const counts: BackfillCounts = {
    warehouses: 0,
    companies: 0,
    tenants: 0,
    productSentinels: 0,
    productStatusEntries: 0,
    warehouseCompanies: 0,
    warehouseValues: 0,
    coverageTenants: 0,
    supplierBlocks: 0,
    searchLists: 0,
    users: 0,
  };
  const sizes = new Map<string, { source: SearchSource; tenantId: string; count: number }>();
  const count = (source: SearchSource, tenantId: string, added: number) => {
    const key = `${source.list}#${tenantId}`;
    sizes.set(key, { source, tenantId, count: (sizes.get(key)?.count ?? 0) + added });
  };
  const registered = new Set<string>();
  const companies = new Map<string, Promise<Company[]>>();
  const companiesOf = (tenantId: string) => {
    if (!companies.has(tenantId)) companies.set(tenantId, listAllCompanies(tenantId));
    return companies.get(tenantId) as Promise<Company[]>;
  };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type IN (:warehouse, :company, :tenant, :sku, :user) OR sk = :supplierStats',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':warehouse': INVENTORY_ITEMS.warehouse,
          ':company': COMPANY_ITEMS.company,
          ':tenant': TENANT_ITEMS.tenant,
          ':sku': INVENTORY_ITEMS.productSku,
          ':user': USER_ITEMS.user,
          ':supplierStats': keys.supplierStats('').sk,
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.type === INVENTORY_ITEMS.warehouse) {
        const { id, name, createdAt } = item as { id: string; name: string; createdAt: string };
        const tenantId = tenantOf(item.pk);
        const oldest = (await companiesOf(tenantId))[0];
        const companyId = typeof item.companyId === 'string' ? item.companyId : oldest?.id;
        if (oldest && item.companyId === undefined) {
          // With the company's status, which the warehouse's movements are conditioned on.
          await db()
            .send(
              new UpdateCommand({
                TableName: tableName(),
                Key: { pk: String(item.pk), sk: String(item.sk) },
                UpdateExpression: 'SET companyId = :company, companyStatus = :status',
                ConditionExpression: 'attribute_not_exists(companyId)',
                ExpressionAttributeValues: { ':company': oldest.id, ':status': oldest.status },
              }),
            )
            .catch(ignoreConditionFailure);
          counts.warehouseCompanies += 1;
        }
        if (item.totalReplacementValue === undefined && (await valueAtLastCost(tenantId, id, item))) counts.warehouseValues += 1;
        await put({
          ...keys.warehouseListing(tenantId, sortName(name), id),
          type: INVENTORY_ITEMS.warehouseListing,
          id,
          name,
          createdAt,
          ...(companyId === undefined ? {} : { companyId }),
        });
        counts.warehouses += 1;
      } else if (item.type === COMPANY_ITEMS.company) {
        const { id, tenantId, createdAt } = item as { id: string; tenantId: string; createdAt: string };
        await put({ ...keys.companyListing(tenantId, createdAt, id), type: COMPANY_ITEMS.listing, companyId: id });
        counts.companies += 1;
      } else if (item.type === TENANT_ITEMS.tenant && item.gsi1pk === 'TENANTS') {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: String(item.pk), sk: String(item.sk) },
            UpdateExpression: 'SET gsi1pk = :shard',
            ExpressionAttributeValues: { ':shard': gsi1.tenantsByName(String(item.name)).gsi1pk },
          }),
        );
        counts.tenants += 1;
      }
      if (item.type === USER_ITEMS.user) {
        const { id, tenantId, name } = item as { id: string; tenantId: string; name: string };
        await put({ ...keys.userListing(tenantId, sortName(name), id), type: USER_ITEMS.listing, userId: id });
        counts.users += 1;
      }
      if (item.sk === keys.supplierStats('').sk && (await readSupplierBlocks(tenantOf(item.pk))).length === 0) {
        counts.supplierBlocks += await rebuildSupplierBlocks(tenantOf(item.pk));
      }
      if (item.sk === keys.supplierStats('').sk) count(supplierSearchSource, tenantOf(item.pk), Number(item.count ?? 0));
      if (item.type === INVENTORY_ITEMS.productSku) count(productSearchSource, tenantOf(item.pk), 1);
      if (item.type === INVENTORY_ITEMS.productSku && !registered.has(tenantOf(item.pk))) {
        registered.add(tenantOf(item.pk));
        await registerCoverageTenant(tenantOf(item.pk));
        counts.coverageTenants += 1;
      }
      if (item.type === INVENTORY_ITEMS.productSku && item.status === undefined) {
        // A product from before the status lists: its entry in its status's list, written as a create would (only where none is).
        const { Item: product } = await db().send(
          new GetCommand({ TableName: tableName(), Key: keys.product(tenantOf(item.pk), String(item.productId)), ConsistentRead: true }),
        );
        if (
          product &&
          (await conditionally(
            db().send(
              new PutCommand({
                TableName: tableName(),
                Item: statusEntryItem(tenantOf(item.pk), listingOf(product)),
                ConditionExpression: 'attribute_not_exists(pk)',
              }),
            ),
          ))
        ) {
          counts.productStatusEntries += 1;
        }
      }
      if (item.type === INVENTORY_ITEMS.productSku && item.name === undefined) {
        const { Item: product } = await db().send(
          new GetCommand({ TableName: tableName(), Key: keys.product(tenantOf(item.pk), String(item.productId)), ConsistentRead: true }),
        );
        if (!product) continue;
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: String(item.pk), sk: String(item.sk) },
            UpdateExpression: 'SET id = :id, sku = :sku, #name = :name, createdAt = :createdAt',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: {
              ':id': String(product.id),
              ':sku': String(product.sku),
              ':name': String(product.name),
              ':createdAt': String(product.createdAt),
            },
          }),
        );
        counts.productSentinels += 1;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  // After the sentinels are complete: a list's chunks are built from them.
  const large = [...sizes.values()].filter((list) => list.count >= SEARCH_BUILD_FROM);
  await mapConcurrently(large, BUILD_CONCURRENCY, async ({ source, tenantId }) => {
    if ((await readSearchLog(tenantId, source.list)).manifest) return;
    // False when a search built them meanwhile: built either way.
    if (await rebuildSearchList(source, tenantId)) counts.searchLists += 1;
  });
  return counts;
}

async function put(item: Record<string, unknown>): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
}
