import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, expect, it } from 'vitest';
import { cnpj } from 'cpf-cnpj-validator';
import { db, tableName } from '../../lib/db/client';
import { gsi1, keys } from '../../lib/db/keys';
import { sortName } from '../../lib/db/name-order';
import { backfillListings, SEARCH_BUILD_FROM } from '../../tools/admin/backfill-listings';
import { randomUUID } from 'node:crypto';
import { generateSuppliers } from '../../bench/support/brazilian-suppliers';
import { bulkInsertSuppliers } from '../../lib/suppliers/repository';
import { listSuppliers } from '../../lib/suppliers/service';
import { readCoverageIndexPage } from '../../lib/inventory/coverage-repository';
import { readSearchLog } from '../../lib/search/repository';
import { dayOf } from '../../lib/domain/days';
import { INDEXED_COVERAGE_DAYS } from '../../lib/inventory/model';
import { coverageItem, stockCoverage } from '../../lib/inventory/dashboards';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import { settings } from '../../lib/settings';
import { testPrincipal } from '../support/principal';
import { call, newTenantWithAdmin, uniqueName, useLocalStoreInProcess } from './api';

/**
 * `npm run migrate`: items written before the list entries existed are listed once it ran.
 * Each kind is made "old" by removing what the cursor pages added (list entries, sentinels), then the backfill runs twice.
 */
beforeAll(useLocalStoreInProcess);

/**
 * The backfill reads the whole table, and the integration tests share one store: by the time
 * this file runs it holds what every other file wrote (their events and audit entries
 * included). Each test scans it twice, which on a busy 2-core runner takes longer than the
 * default 30 s.
 */
const WHOLE_TABLE_SCANS_MS = 120_000;

const item = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

it(
  'lists warehouses, companies and products written before their list entries, and moves old tenants to their shard',
  async () => {
    const admin = await newTenantWithAdmin();
    const post = async (path: string, body: unknown) => (await call<{ id: string; createdAt: string }>('POST', path, { cookies: admin.cookies, body })).body;
    const warehouse = await post('/inventory/warehouses', { name: 'Depósito Antigo' });
    const company = await post('/companies', { name: 'Empresa Antiga', document: cnpj.generate() });
    const sku = uniqueName('OLD');
    const product = await post('/inventory/products', { sku, name: 'Produto Antigo' });
    const tenantName = uniqueName('old');
    const tenant = await call<{ id: string }>('POST', '/tenants', { body: { name: tenantName, plan: 'STARTER' } });

    // As they were stored before the cursor pages.
    const warehouseEntry = keys.warehouseListing(admin.tenantId, sortName('Depósito Antigo'), warehouse.id);
    const companyEntry = keys.companyListing(admin.tenantId, company.createdAt, company.id);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: warehouseEntry }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: companyEntry }));
    const userEntry = keys.userListing(admin.tenantId, sortName('Admin'), admin.userId);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: userEntry }));
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.productSku(admin.tenantId, sku),
        UpdateExpression: 'REMOVE id, sku, #name, createdAt',
        ExpressionAttributeNames: { '#name': 'name' },
      }),
    );
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tenant(tenant.body.id),
        UpdateExpression: 'SET gsi1pk = :old',
        ExpressionAttributeValues: { ':old': 'TENANTS' },
      }),
    );
    const list = async (path: string) => (await call<{ id: string }[]>('GET', path, { cookies: admin.cookies })).body.map((entry) => entry.id);
    expect(await list('/inventory/warehouses')).toEqual([]);
    expect(await list('/companies')).toEqual([]);

    for (let run = 0; run < 2; run += 1) {
      const counts = await backfillListings();
      expect(counts.warehouses).toBeGreaterThanOrEqual(1);
      expect(await list('/inventory/warehouses')).toEqual([warehouse.id]);
      expect(await list('/companies')).toEqual([company.id]);
      expect(await list('/inventory/products')).toEqual([product.id]);
      expect(await list('/inventory/products?search=antigo')).toEqual([product.id]);
      expect(await list('/users')).toEqual([admin.userId]);
      expect(await item(keys.productSku(admin.tenantId, sku))).toMatchObject({
        productId: product.id,
        id: product.id,
        sku,
        name: 'Produto Antigo',
        createdAt: product.createdAt,
      });
      expect((await item(keys.tenant(tenant.body.id)))?.gsi1pk).toBe(gsi1.tenantsByName(tenantName).gsi1pk);
    }
    expect(await item(warehouseEntry)).toEqual({
      ...warehouseEntry,
      type: 'WarehouseListing',
      id: warehouse.id,
      name: 'Depósito Antigo',
      createdAt: warehouse.createdAt,
      // Made before the tenant had a company: it gets the tenant's oldest.
      companyId: company.id,
    });
    expect(await item(keys.warehouse(admin.tenantId, warehouse.id))).toMatchObject({ companyId: company.id, totalReplacementValue: 0 });
    expect(await item(companyEntry)).toEqual({ ...companyEntry, type: 'CompanyListing', companyId: company.id });
  },
  WHOLE_TABLE_SCANS_MS,
);

it(
  'registers a tenant whose products predate the coverage index, so that the next job indexes them',
  async () => {
    const admin = await newTenantWithAdmin();
    const post = async (path: string, body: unknown) => (await call<{ id: string }>('POST', path, { cookies: admin.cookies, body })).body;
    const warehouse = await post('/inventory/warehouses', { name: 'Central' });
    const products = [
      await post('/inventory/products', { sku: 'OLD-1', name: 'Antigo 1' }),
      await post('/inventory/products', { sku: 'OLD-2', name: 'Antigo 2' }),
    ];
    await post('/inventory/movements', { productId: products[0]?.id, warehouseId: warehouse.id, type: 'IN', quantity: 4, unitCost: 1 });

    // As they were stored before the index: no registration (removed first, so that a job run by
    // another test cannot index them meanwhile), no coverage state, no entries.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.coverageTenant(admin.tenantId) }));
    for (const product of products) {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.product(admin.tenantId, String(product.id)),
          UpdateExpression: 'REMOVE coverageVersion, coverageSold',
        }),
      );
    }
    for (const days of INDEXED_COVERAGE_DAYS) {
      const { Items = [] } = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.coverageIndexOf(admin.tenantId, days).pk },
        }),
      );
      for (const entry of Items) await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: entry.pk, sk: entry.sk } }));
    }

    expect(await item(keys.coverageTenant(admin.tenantId))).toBeUndefined();

    const today = dayOf(Date.now(), settings.businessTimeZone);
    expect((await backfillListings()).coverageTenants).toBeGreaterThanOrEqual(1);
    expect(await item(keys.coverageTenant(admin.tenantId))).toEqual({ ...keys.coverageTenant(admin.tenantId), type: 'CoverageTenant' });
    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    const full = (await stockCoverage(testPrincipal({ tenantId: admin.tenantId }), 30, Date.now())).map((entry) => entry.item);
    expect(full.map((entry) => entry.sku)).toEqual(['OLD-1', 'OLD-2']);
    const indexed = await readCoverageIndexPage(admin.tenantId, 30, { today, limit: 10 });
    expect(indexed?.rows.map(({ product, sold }) => coverageItem(product, sold, 30).item)).toEqual(full);
    // The backfill scans the whole shared store, which every test file grows.
  },
  WHOLE_TABLE_SCANS_MS,
);

it(
  `gives a list of ${SEARCH_BUILD_FROM} suppliers or more its search chunks, once, and leaves a smaller one to its first search`,
  async () => {
    const [large, small] = [randomUUID(), randomUUID()];
    await bulkInsertSuppliers(large, generateSuppliers(SEARCH_BUILD_FROM, 3));
    await bulkInsertSuppliers(small, generateSuppliers(SEARCH_BUILD_FROM - 1, 4));
    for (let run = 0; run < 2; run += 1) {
      await backfillListings();
      expect((await readSearchLog(large, 'suppliers')).manifest, `run ${run}`).toMatchObject({ level: 3, rev: 1 });
      expect((await readSearchLog(small, 'suppliers')).manifest, `run ${run}`).toBeUndefined();
    }
    const everything = await listSuppliers(testPrincipal({ tenantId: large }), { page: 1, limit: 10, search: '0001' }, Date.now(), undefined);
    expect(everything.total).toBe(SEARCH_BUILD_FROM);
  },
  WHOLE_TABLE_SCANS_MS,
);
