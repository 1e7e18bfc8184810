/** The routes of warehouses, products, stock movements and the dashboards (functions/inventory/). */
import type { Route } from './types';

export const createWarehouse = {
  method: 'POST',
  path: '/inventory/warehouses',
  handler: 'functions/inventory/create-warehouse.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['warehouse.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Create a warehouse',
} as const satisfies Route;

export const listWarehouses = {
  method: 'GET',
  path: '/inventory/warehouses',
  handler: 'functions/inventory/list-warehouses.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: "The tenant's warehouses, by name",
} as const satisfies Route;

export const getWarehouse = {
  method: 'GET',
  path: '/inventory/warehouses/{id}',
  handler: 'functions/inventory/get-warehouse.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'One warehouse by id',
} as const satisfies Route;

export const createProduct = {
  method: 'POST',
  path: '/inventory/products',
  handler: 'functions/inventory/create-product.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['product.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Create a product (SKU unique in the tenant)',
} as const satisfies Route;

export const listProducts = {
  method: 'GET',
  path: '/inventory/products',
  handler: 'functions/inventory/list-products.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  searches: 'products',
  cpu: 'search',
  // A search on a cold function loads the tenant's products: each user's searches are limited.
  rateLimits: [{ per: 'user', limit: 30, windowSeconds: 60, counts: 'searches' }],
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: "The tenant's products, by SKU",
} as const satisfies Route;

export const getProduct = {
  method: 'GET',
  path: '/inventory/products/{id}',
  handler: 'functions/inventory/get-product.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'One product by id',
} as const satisfies Route;

export const updateProduct = {
  method: 'PATCH',
  path: '/inventory/products/{id}',
  handler: 'functions/inventory/update-product.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['product.updated'],
  apiKey: { resource: 'inventory', access: 'write' },
  summary: "Change a product's fields (If-Match: its ETag)",
} as const satisfies Route;

export const deleteProduct = {
  method: 'DELETE',
  path: '/inventory/products/{id}',
  handler: 'functions/inventory/delete-product.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['product.deleted'],
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Delete a product that never had a movement',
} as const satisfies Route;

export const createMovement = {
  method: 'POST',
  path: '/inventory/movements',
  handler: 'functions/inventory/create-movement.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['movement.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Record a stock movement (IN, OUT, SALE, ADJUSTMENT)',
} as const satisfies Route;

export const listMovements = {
  method: 'GET',
  path: '/inventory/movements',
  handler: 'functions/inventory/list-movements.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'The stock history (kardex): movements newest first, with the balance each left',
} as const satisfies Route;

export const stockCoverage = {
  method: 'GET',
  path: '/inventory/dashboard/coverage',
  handler: 'functions/inventory/stock-coverage.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query'] },
  uses: ['cursor-key'],
  // A window the index does not serve reads the whole catalog: each user's such reads are limited.
  rateLimits: [{ per: 'user', limit: 60, windowSeconds: 3600, counts: 'full-reads' }],
  apiKey: { resource: 'dashboards', access: 'read' },
  summary: 'Days of stock per product at the average daily sales of the last `days` days',
} as const satisfies Route;

export const stockByWarehouse = {
  method: 'GET',
  path: '/inventory/dashboard/by-warehouse',
  handler: 'functions/inventory/stock-by-warehouse.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'Query'] },
  apiKey: { resource: 'dashboards', access: 'read' },
  summary: 'Stock totals per warehouse',
} as const satisfies Route;
