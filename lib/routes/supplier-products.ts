/** The routes of what each supplier sells (lib/supplier-products): in the suppliers' area (functions/suppliers/), a product's suppliers in the inventory's. */
import type { Route } from './types';

const WRITES = ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;

export const createSupplierProduct = {
  method: 'POST',
  path: '/suppliers/{id}/products',
  handler: 'functions/suppliers/create-supplier-product.ts',
  auth: 'protected',
  // The supplier and the product are checked to exist in the link's transaction.
  table: { actions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['supplier_product.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: 'Say that a supplier sells a product, with its code, pack, cost and lead time',
} as const satisfies Route;

export const listSupplierProducts = {
  method: 'GET',
  path: '/suppliers/{id}/products',
  handler: 'functions/suppliers/list-supplier-products.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'suppliers', access: 'read' },
  summary: "A page of a supplier's products",
} as const satisfies Route;

export const getSupplierProduct = {
  method: 'GET',
  path: '/suppliers/{id}/products/{productId}',
  handler: 'functions/suppliers/get-supplier-product.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem'] },
  apiKey: { resource: 'suppliers', access: 'read' },
  summary: "A supplier's terms for one product, with its ETag",
} as const satisfies Route;

export const updateSupplierProduct = {
  method: 'PATCH',
  path: '/suppliers/{id}/products/{productId}',
  handler: 'functions/suppliers/update-supplier-product.ts',
  auth: 'protected',
  table: { actions: [...WRITES] },
  audits: ['supplier_product.updated'],
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: "Change a supplier's terms for a product (If-Match: its ETag)",
} as const satisfies Route;

export const deleteSupplierProduct = {
  method: 'DELETE',
  path: '/suppliers/{id}/products/{productId}',
  handler: 'functions/suppliers/delete-supplier-product.ts',
  auth: 'protected',
  table: { actions: [...WRITES] },
  audits: ['supplier_product.deleted'],
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: 'The supplier no longer sells the product',
} as const satisfies Route;

export const listProductSuppliers = {
  method: 'GET',
  path: '/inventory/products/{id}/suppliers',
  handler: 'functions/inventory/list-product-suppliers.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: "A page of a product's suppliers",
} as const satisfies Route;
