import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, expect, it } from 'vitest';
import { cnpj } from 'cpf-cnpj-validator';
import { db, tableName } from '../../lib/db/client';
import { gsi1, keys } from '../../lib/db/keys';
import { sortName } from '../../lib/db/name-order';
import { backfillListings } from '../../tools/admin/backfill-listings';
import { call, newTenantWithAdmin, uniqueName, useLocalStoreInProcess } from './api';

/**
 * `npm run migrate`: items written before the list entries existed are listed once it ran.
 * Each kind is made "old" by removing what issue 15 added, then the backfill runs twice.
 */
beforeAll(useLocalStoreInProcess);

const item = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

it('lists warehouses, companies and products written before their list entries, and moves old tenants to their shard', async () => {
  const admin = await newTenantWithAdmin();
  const post = async (path: string, body: unknown) => (await call<{ id: string; createdAt: string }>('POST', path, { cookies: admin.cookies, body })).body;
  const warehouse = await post('/inventory/warehouses', { name: 'Depósito Antigo' });
  const company = await post('/companies', { name: 'Empresa Antiga', document: cnpj.generate() });
  const sku = uniqueName('OLD');
  const product = await post('/inventory/products', { sku, name: 'Produto Antigo' });
  const tenantName = uniqueName('old');
  const tenant = await call<{ id: string }>('POST', '/tenants', { body: { name: tenantName, plan: 'STARTER' } });

  // As they were stored before issue 15.
  const warehouseEntry = keys.warehouseListing(admin.tenantId, sortName('Depósito Antigo'), warehouse.id);
  const companyEntry = keys.companyListing(admin.tenantId, company.createdAt, company.id);
  await db().send(new DeleteCommand({ TableName: tableName(), Key: warehouseEntry }));
  await db().send(new DeleteCommand({ TableName: tableName(), Key: companyEntry }));
  await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.productSku(admin.tenantId, sku), UpdateExpression: 'REMOVE id, sku, #name, createdAt', ExpressionAttributeNames: { '#name': 'name' } }));
  await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.tenant(tenant.body.id), UpdateExpression: 'SET gsi1pk = :old', ExpressionAttributeValues: { ':old': 'TENANTS' } }));
  const list = async (path: string) => (await call<{ id: string }[]>('GET', path, { cookies: admin.cookies })).body.map((entry) => entry.id);
  expect(await list('/inventory/warehouses')).toEqual([]);
  expect(await list('/companies')).toEqual([]);

  for (let run = 0; run < 2; run += 1) {
    const counts = await backfillListings();
    expect(counts.warehouses).toBeGreaterThanOrEqual(1);
    expect(await list('/inventory/warehouses')).toEqual([warehouse.id]);
    expect(await list('/companies')).toEqual([company.id]);
    expect(await list('/inventory/products')).toEqual([product.id]);
    expect(await item(keys.productSku(admin.tenantId, sku))).toMatchObject({ productId: product.id, id: product.id, sku, name: 'Produto Antigo', createdAt: product.createdAt });
    expect((await item(keys.tenant(tenant.body.id)))?.gsi1pk).toBe(gsi1.tenantsByName(tenantName).gsi1pk);
  }
  expect(await item(warehouseEntry)).toEqual({ ...warehouseEntry, type: 'WarehouseListing', id: warehouse.id, name: 'Depósito Antigo', createdAt: warehouse.createdAt });
  expect(await item(companyEntry)).toEqual({ ...companyEntry, type: 'CompanyListing', companyId: company.id });
});
